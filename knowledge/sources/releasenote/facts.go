package releasenote

import (
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	// reKubeVersion is "Kubernetes 1.29", "Kubernetes v1.30", "K8s 1.31".
	reKubeVersion = lazyre.New(`(?i)(?:kubernetes|k8s)\s*v?([0-9]{1,2})\.([0-9]{1,3})(?:[^0-9.]|$)`)
	// reVVersion is "v1.29" on its own.
	reVVersion = lazyre.New(`(?:^|[^A-Za-z0-9])v([0-9]{1,2})\.([0-9]{1,3})(?:[^0-9.]|$)`)
	// reCNDate is "2023 年 12 月 13 日".
	reCNDate = lazyre.New(`([0-9]{4})\s*年\s*([0-9]{1,2})\s*月\s*([0-9]{1,2})\s*日`)
	// reISODate is "2023-12-13" at the start of a front-matter value.
	reISODate = lazyre.New(`^([0-9]{4})-([0-9]{2})-([0-9]{2})`)
	// reReleaseDay marks the sentence that gives the release day.
	reReleaseDay = lazyre.New(`太平洋时间|正式发布|Pacific|released on`)

	reTheme = lazyre.List(
		`主题为\s*(.*?)\s*的\s*(?:Kubernetes|K8s)`,
		`主题是\s*[:：]?\s*([^。\n]*)`,
		`(?i)release theme is\s*:?\s*([^.\n]*)`,
	)
	reQuoted      = lazyre.New(`[“"「]([^”"」]{2,40})[”"」]`)
	rePlaceholder = lazyre.New(`\{[^{}]*\}`)

	reCountTotal  = lazyre.New(`([0-9]{1,3})\s*(?:个|项)\s*(?:enhancements?|改进|增强)`)
	reCountStable = lazyre.New(`([0-9]{1,3})\s*(?:个|项)[^，,。；;0-9]{0,12}?(?:稳定版|稳定|GA|[Ss]table)`)
	reCountBeta   = lazyre.New(`([0-9]{1,3})\s*(?:个|项)[^，,。；;0-9]{0,16}?[Bb]eta`)
	reCountAlpha  = lazyre.New(`([0-9]{1,3})\s*(?:个|项)[^，,。；;0-9]{0,16}?[Aa]lpha`)
	reCountNew    = lazyre.New(`新增\s*([0-9]{1,3})\s*(?:个|项)\s*(?:全新)?(?:功能|特性)`)
)

// docVersion finds the release a document is about: the version in its
// title (front matter title, then the first heading); failing that, the one
// it names most often ("Kubernetes 1.29", "v1.29"). A document cut in half
// still names its release often enough in the half that is left.
func docVersion(fm frontMatter, blocks []block) (knowledge.Version, error) {
	var titles []string
	if t := fm["title"]; t != "" {
		titles = append(titles, t)
	}
	for _, b := range blocks {
		if b.kind == blockHeading {
			titles = append(titles, b.text)
			break
		}
	}
	for _, t := range titles {
		if v, ok := versionIn(t); ok {
			return v, nil
		}
	}
	count := map[knowledge.Version]int{}
	var order []knowledge.Version
	for _, b := range blocks {
		if b.kind == blockCode {
			continue
		}
		for _, re := range []*regexp.Regexp{reKubeVersion(), reVVersion()} {
			for _, m := range re.FindAllStringSubmatch(b.text, -1) {
				v, err := knowledge.ParseVersion(m[1] + "." + m[2])
				if err != nil || v.Major != 1 {
					continue
				}
				if count[v] == 0 {
					order = append(order, v)
				}
				count[v]++
			}
		}
	}
	best := knowledge.Version{}
	for _, v := range order {
		if count[v] > count[best] {
			best = v
		}
	}
	if best.IsZero() {
		return best, ErrNoVersion
	}
	return best, nil
}

func versionIn(s string) (knowledge.Version, bool) {
	for _, re := range []*regexp.Regexp{reKubeVersion(), reVVersion()} {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, err := knowledge.ParseVersion(m[1] + "." + m[2]); err == nil && v.Major == 1 {
				return v, true
			}
		}
	}
	return knowledge.Version{}, false
}

// releaseDate finds the release day: the date in the preamble sentence that
// announces release v ("太平洋时间 2023 年 12 月 13 日，... Kubernetes 1.29
// 正式发布"), else the front-matter date. It returns "" when neither is found.
func releaseDate(fm frontMatter, preamble []string, v knowledge.Version) string {
	for _, p := range preamble {
		for _, sent := range strings.FieldsFunc(p, func(r rune) bool { return r == '。' || r == '\n' }) {
			if !reReleaseDay().MatchString(sent) || !namesRelease(sent, v) {
				continue
			}
			if m := reCNDate().FindStringSubmatch(sent); m != nil {
				if d, ok := validDate(m[1], m[2], m[3]); ok {
					return d
				}
			}
		}
	}
	if m := reISODate().FindStringSubmatch(fm["date"]); m != nil {
		if d, ok := validDate(m[1], m[2], m[3]); ok {
			return d
		}
	}
	return ""
}

func validDate(y, mo, d string) (string, bool) {
	yy, _ := strconv.Atoi(y)
	mm, _ := strconv.Atoi(mo)
	dd, _ := strconv.Atoi(d)
	t := time.Date(yy, time.Month(mm), dd, 0, 0, 0, 0, time.UTC)
	if t.Year() != yy || int(t.Month()) != mm || t.Day() != dd || yy < 2014 {
		return "", false
	}
	return t.Format("2006-01-02"), true
}

// releaseTheme finds the release theme ("主题为 Mandala（宇宙）的 Kubernetes",
// "主题是：Mandala"). A template placeholder such as {release-name} means the
// note does not know it; an empty "主题是 。" takes the quoted name that
// follows in the same paragraph. It returns "" when the note gives none.
func releaseTheme(paras []string) string {
	for _, p := range paras {
		for _, re := range reTheme() {
			m := re.FindStringSubmatchIndex(p)
			if m == nil {
				continue
			}
			t := cleanTheme(p[m[2]:m[3]])
			if t == "" && rePlaceholder().FindString(p[m[2]:m[3]]) == "" {
				if q := reQuoted().FindStringSubmatch(p[m[1]:]); q != nil {
					t = cleanTheme(q[1])
				}
			}
			if t != "" {
				return t
			}
		}
	}
	return ""
}

// cleanTheme keeps the theme's name: no placeholder, no gloss in brackets,
// no trailing emoji or punctuation.
func cleanTheme(s string) string {
	if rePlaceholder().MatchString(s) {
		return ""
	}
	if i := strings.IndexAny(s, "（(，,。"); i >= 0 {
		s = s[:i]
	}
	s = trimDecor(s)
	if len([]rune(s)) > 40 {
		return ""
	}
	return s
}

// releaseCounts reads the enhancement counts from the preamble, as the note
// states them. A count the note does not state stays 0: the total of 1.31's
// note is not given, and its three numbers do not add up to the real total.
func releaseCounts(preamble []string) knowledge.Counts {
	var c knowledge.Counts
	for _, p := range preamble {
		get := func(re *regexp.Regexp, dst *int) {
			if *dst != 0 {
				return
			}
			if m := re.FindStringSubmatch(p); m != nil {
				*dst, _ = strconv.Atoi(m[1])
			}
		}
		get(reCountTotal(), &c.Total)
		get(reCountStable(), &c.Stable)
		get(reCountBeta(), &c.Beta)
		get(reCountAlpha(), &c.Alpha)
		get(reCountNew(), &c.Alpha)
	}
	return c
}

// sourceName is the name answers show for the document.
func sourceName(v knowledge.Version, lang string) string {
	return fmt.Sprintf("Kubernetes %s release note (%s)", v, lang)
}
