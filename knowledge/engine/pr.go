package engine

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// answerPR answers `pr N`: the release-note entries of pull request N of
// kubernetes/kubernetes in every release whose notes kepbot holds as data,
// with the KEPs they link to and the notice each makes. It fails with
// EBADINPUT for a number that is not one and ENOTFOUND, naming the
// releases whose notes it looked in, when no entry names N.
func (e *Engine) answerPR(ctx context.Context, words string) (*knowledge.Answer, error) {
	n, err := strconv.Atoi(words)
	if err != nil || n <= 0 {
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "%q is not a pull request number. Ask e.g. pr 130135.", knowledge.Echo(words))
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	var found []knowledge.Change
	var looked []knowledge.Version
	for _, v := range c.versions {
		if c.notesData[v] {
			looked = append(looked, v)
		}
		cs := c.changes[v]
		i := sort.Search(len(cs), func(i int) bool { return cs[i].PR >= n })
		for ; i < len(cs) && cs[i].PR == n; i++ {
			found = append(found, cs[i])
		}
	}
	if len(found) == 0 {
		where := "I hold no release notes as data"
		if len(looked) > 0 {
			where = "It is in none of the release notes I hold (" + versionRanges(looked) + ")"
		}
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "Pull request #%d of kubernetes/kubernetes: %s. Not every pull request gets a release note; a newer one may be in a release I don't hold yet.", n, where)
	}
	return e.prAnswer(c, n, found), nil
}

// prAnswer is the answer for the entries of pull request n, oldest
// release first.
func (e *Engine) prAnswer(c *catalog, n int, found []knowledge.Change) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: fmt.Sprintf("Pull request #%d in the release notes", n)}
	var releases []string
	var ids []string
	keps := map[int]bool{}
	for _, ch := range found {
		releases = append(releases, ch.Release.String())
		ids = append(ids, ch.Source)
		words := ch.Text
		if rest, ok := strings.CutPrefix(strings.Join(strings.Fields(ch.Text), " "), knowledge.ChangeTitle(ch)); ok {
			words = strings.TrimSpace(rest) // the title quotes the first sentence: the rest, once
		}
		it := knowledge.Item{Release: ch.Release, Title: prItemTitle(ch), Text: knowledge.Quote(words, e.maxQuote), Source: ch.Source}
		if len(ch.SIGs) > 0 {
			it.SIG = "sig-" + strings.Join(ch.SIGs, ", sig-")
		}
		if len(ch.KEPs) > 0 {
			it.KEP = ch.KEPs[0]
		}
		a.Items = append(a.Items, it)
		for _, k := range ch.KEPs {
			keps[k] = true
		}
		if ch.URL != "" && len(a.Links) == 0 {
			a.Links = append(a.Links, knowledge.Link{Title: fmt.Sprintf("PR #%d", n), URL: ch.URL})
		}
	}
	a.Text = fmt.Sprintf("Pull request #%d of kubernetes/kubernetes is listed in the release notes of %s.", n, strings.Join(releases, " and "))
	var nums []int
	for k := range keps {
		nums = append(nums, k)
	}
	sort.Ints(nums)
	for _, k := range nums {
		line := fmt.Sprintf("KEP-%d", k)
		if kp := c.byNum[k]; kp != nil && kp.Title != "" {
			line += " (" + kp.Title + ")"
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Linked KEP", Value: line})
		a.Links = append(a.Links, kepLink(k))
		a.Suggest = append(a.Suggest, "kep "+strconv.Itoa(k))
	}
	a.Sources = c.sourceRefs(ids)
	return a
}

// prItemTitle names one entry: its kinds, the notice it makes and what
// its effects or first sentence say, "action required" when it is one.
func prItemTitle(ch knowledge.Change) string {
	var tags []string
	if kinds := mainKinds(ch.Kinds); len(kinds) > 0 {
		tags = append(tags, strings.Join(kinds, "/"))
	}
	switch ch.Notice {
	case knowledge.NoticeDeprecation:
		tags = append(tags, "deprecation notice")
	case knowledge.NoticeRemoval:
		tags = append(tags, "removal notice")
	case knowledge.NoticeUpgrade:
		tags = append(tags, "upgrade note")
	}
	if ch.HasKind(string(knowledge.NoticeDeprecation)) && ch.Notice != knowledge.NoticeDeprecation {
		tags = append(tags, "labelled deprecation by the release notes")
	}
	if ch.Action {
		tags = append(tags, "action required")
	}
	t := knowledge.ChangeTitle(ch)
	if len(tags) > 0 {
		t = "[" + strings.Join(tags, ", ") + "] " + t
	}
	return t
}
