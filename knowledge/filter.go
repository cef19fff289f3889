package knowledge

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// filterKeys are the subscribe filters, in the order Canonical writes them.
var filterKeys = []string{"sig", "from", "schedule", "format"}

// filterChoices are the values a filter allows, where they are fixed.
var filterChoices = map[string][]string{
	"schedule": {ScheduleRelease, ScheduleWeekly, ScheduleDaily},
	"format":   {FormatCompact, FormatFull},
}

// FilterKeys returns the subscribe filters (sig, from, schedule, format) in
// the order a canonical question writes them.
func FilterKeys() []string { return slices.Clone(filterKeys) }

// FilterChoices returns the values filter key allows when they are a fixed
// list (schedule, format), and nil for the others.
func FilterChoices(key string) []string { return slices.Clone(filterChoices[key]) }

// filterValue checks and normalises the value of filter k: a SIG name
// without "sig-", a release as 1.29, a schedule or format in lower case. It
// fails with EBADINPUT saying what the filter allows.
func filterValue(k, v string) (string, error) {
	lv := strings.ToLower(v)
	switch k {
	case "sig":
		lv = strings.TrimPrefix(lv, "sig-")
		if !IsSIGName(lv) {
			return "", badInput("subscribe", "sig:%s is not a SIG name; use one like sig:network.", echo(v))
		}
		return lv, nil
	case "from":
		ver, err := ParseVersion(lv)
		if err != nil {
			return "", badInput("subscribe", "from:%s is not a release; use one like from:1.29.", echo(v))
		}
		return ver.String(), nil
	}
	choices := filterChoices[k]
	if !contains(choices, lv) {
		return "", badInput("subscribe", "%s:%s is not allowed; use %s:%s.", k, echo(v), k, strings.Join(choices, ", "+k+":"))
	}
	return lv, nil
}

// IsSIGName reports whether s is written like a SIG name: letters, digits
// and dashes, not starting with a dash, at most 40 runes ("network",
// "api-machinery", "sig-node"). It says nothing of whether the SIG exists.
func IsSIGName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 40 || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
			return false
		}
	}
	return true
}

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }
