package discord

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// maxMessageBytes caps a message kepbot reads as a question; Discord's own
// cap is 4,000 characters for the longest messages.
const maxMessageBytes = 16 << 10

func (a *Adapter) onReady(_ *discordgo.Session, r *discordgo.Ready) {
	if r == nil || r.User == nil {
		return
	}
	a.log.Info().Str("bot_user", r.User.ID).Int("guilds", len(r.Guilds)).Msg("discord gateway ready")
}

// onMessageCreate answers a message addressed to kepbot: `!k8s …`, a
// leading mention of the bot, or anything in a DM; a scan reads the
// manifests after its question and the file attached (scanMessage). It
// ignores bots (itself included), webhooks and system messages, channels
// that refused kepbot recently, and people asking faster than their limit
// (told once).
func (a *Adapter) onMessageCreate(_ *discordgo.Session, m *discordgo.MessageCreate) {
	if m == nil || m.Message == nil || m.Author == nil || m.Author.Bot || m.Author.System || m.WebhookID != "" {
		return
	}
	bot := a.botUser()
	if bot == "" || m.Author.ID == bot {
		return
	}
	if len(m.Content) > maxMessageBytes {
		return
	}
	prefix := ""
	if a.cfg.PrefixCommands {
		prefix = a.cfg.Prefix
	}
	text, ok := messageText(m.Content, prefix, bot, m.GuildID == "")
	if !ok {
		return
	}
	ctx, done, ok := a.start(answerTimeout + sendTimeout)
	if !ok {
		return
	}
	defer done()
	log := a.log.With().Str("platform", Platform).Str("guild", m.GuildID).Str("channel", m.ChannelID).
		Str("user", m.Author.ID).Str("via", "message").Logger()
	if a.rest.refused.has(m.ChannelID, a.clock()) {
		log.Debug().Msg("discord: channel refused kepbot recently; not answering")
		return
	}
	allowed, warn := a.users.allow(m.Author.ID, a.clock())
	if !allowed {
		log.Info().Bool("told", warn).Msg("discord: user over their question rate")
		if warn {
			a.reply(ctx, log, m, []Message{textMessage(limitedText, false)})
		}
		return
	}
	origin := knowledge.Origin{Platform: Platform, Workspace: m.GuildID, Channel: m.ChannelID, User: m.Author.ID, UserName: m.Author.Username}
	if head, inline, scan := splitScan(text); scan {
		a.scanMessage(ctx, m, head, inline, origin, log)
		return
	}
	if question.ChangesSubscription(text) {
		var how string
		origin.CanManage, how = a.messageCanManage(ctx, m, log)
		auditManage(log, origin.CanManage, how)
	}
	ans := a.ask(ctx, text, origin, log)
	log.Debug().Str("kind", string(ans.Kind)).Msg("discord: answered")
	a.reply(ctx, log, m, Render(ans))
}

// reply answers the message m with msgs, in order, stopping at the first
// failure. In a server channel (or a thread) each is a reply to m: Discord
// shows the question above the answer and ties the two together, as
// Slack's thread ties a mention and its answer, wherever the question was
// asked, without opening a thread of its own (which needs another
// permission, and cannot be done in a thread or a forum post), and without
// pinging the asker (allowed_mentions.replied_user stays false). In a DM,
// the asker's and kepbot's alone, a plain message, as Slack answers a DM.
func (a *Adapter) reply(ctx context.Context, log zerolog.Logger, m *discordgo.MessageCreate, msgs []Message) {
	for _, msg := range msgs {
		if m.GuildID != "" {
			msg.ReplyTo = m.ID
		}
		if err := a.rest.sendChannel(ctx, m.ChannelID, msg); err != nil {
			a.rec.Failed(Platform, metrics.ReasonPost)
			log.Warn().Str("error", err.Error()).Msg("discord: post failed")
			return
		}
	}
}

// messageText returns the question in a message addressed to kepbot: the
// text after the prefix (in any case, followed by a space or nothing),
// after a leading mention of the bot (<@id> or <@!id>), or, in a DM, the
// whole message. ok is false for a message not addressed to kepbot. A
// bare prefix or mention asks for help. An empty prefix (prefix commands
// off) matches nothing.
func messageText(content, prefix, botID string, dm bool) (text string, ok bool) {
	s := strings.TrimLeftFunc(content, unicode.IsSpace)
	if rest, found := cutWord(s, prefix, true); found {
		return trimQuestion(rest), true
	}
	if botID != "" {
		for _, mention := range []string{"<@" + botID + ">", "<@!" + botID + ">"} {
			if rest, found := cutWord(s, mention, false); found {
				rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
				if r, again := cutWord(rest, prefix, true); again { // "@kepbot !k8s 1.29"
					rest = r
				}
				return trimQuestion(rest), true
			}
		}
	}
	if dm && strings.TrimSpace(s) != "" {
		return trimQuestion(s), true
	}
	return "", false
}

// cutWord cuts word off the front of s when s starts with it (in any case
// when fold is set) and what follows is a space or nothing.
func cutWord(s, word string, fold bool) (string, bool) {
	if word == "" || len(s) < len(word) {
		return "", false
	}
	head := s[:len(word)]
	if head != word && !(fold && strings.EqualFold(head, word)) {
		return "", false
	}
	rest := s[len(word):]
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && !unicode.IsSpace(r) {
		return "", false
	}
	return rest, true
}

// trimQuestion trims text; nothing at all is a request for help.
func trimQuestion(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return "help"
	}
	return text
}
