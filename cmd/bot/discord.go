package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/internal/config"
)

// maxSecretFileBytes caps a secret file; a token is far smaller.
const maxSecretFileBytes = 64 << 10

// discordConfig reads the Discord adapter's settings: the config file's
// discord section, then the DISCORD_* environment, then the bot token file
// when no token came from the environment. Errors name the key at fault.
func discordConfig(cfg *config.Config, getenv func(string) string) (discord.Config, error) {
	var d discord.Config
	if err := cfg.DecodeDiscord(&d); err != nil {
		return d, err
	}
	d.ApplyEnv(getenv)
	if d.BotToken.IsZero() {
		path := strings.TrimSpace(getenv("DISCORD_BOT_TOKEN_FILE"))
		key := "DISCORD_BOT_TOKEN_FILE"
		if path == "" {
			path, key = d.BotTokenFile, "discord.bot_token_file"
		}
		if path != "" {
			tok, err := readSecretFile(path)
			if err != nil {
				return d, fmt.Errorf("%s: %w", key, err)
			}
			d.BotToken = discord.NewSecret(tok)
		}
	}
	d = d.WithDefaults()
	if d.Enabled() {
		if err := d.Validate(); err != nil {
			return d, err
		}
	}
	return d, nil
}

// readSecretFile reads a secret from a mounted file, trimmed. The error
// never holds the file's content.
func readSecretFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the secret file %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("cannot read the secret file %s: %w", path, err)
	}
	if len(b) > maxSecretFileBytes {
		return "", fmt.Errorf("the secret file %s is larger than %d KiB; it should hold only the token", path, maxSecretFileBytes>>10)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("the secret file %s is empty", path)
	}
	return s, nil
}
