package knowledge

import "strings"

// filterKeys are the subscribe filters, in the order Canonical writes them.
var filterKeys = []string{"sig", "from", "schedule", "format"}

// filterChoices are the values a filter allows, where they are fixed.
var filterChoices = map[string][]string{
	"schedule": {"release", "weekly", "daily"},
	"format":   {"compact", "full"},
}

func isDeprecationWord(w string) bool {
	st, err := ParseStage(w)
	return err == nil && st == StageDeprecated
}

// parseSubscribe reads "deprecations" and the filters after "subscribe".
func parseSubscribe(args []string) (Question, error) {
	if len(args) == 0 || !isDeprecationWord(strings.ToLower(args[0])) {
		return Question{}, badInput("subscribe", "I can only subscribe a channel to deprecation digests.")
	}
	f, err := parseFilters(args[1:])
	if err != nil {
		return Question{}, err
	}
	return Question{Kind: AskSubscribe, Filters: f}, nil
}

// parseFilters reads key:value filters ("sig: network" and "sig=network" too)
// and checks each value. It fails naming the filter and what it allows.
func parseFilters(args []string) (map[string]string, error) {
	var joined []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if i+1 < len(args) && (strings.HasSuffix(a, ":") || strings.HasSuffix(a, "=") ||
			strings.HasPrefix(args[i+1], ":") || strings.HasPrefix(args[i+1], "=")) {
			a += args[i+1]
			i++
		}
		joined = append(joined, a)
	}
	var out map[string]string
	for _, a := range joined {
		k, v, ok := cutFilter(a)
		if !ok {
			return nil, badInput("subscribe", "%q is not a filter; filters look like sig:network.", echo(a))
		}
		k = strings.ToLower(k)
		if !contains(filterKeys, k) {
			return nil, badInput("subscribe", "I don't know the filter %q; the filters are sig, from, schedule and format.", echo(k))
		}
		if _, dup := out[k]; dup {
			return nil, badInput("subscribe", "The filter %s: is given twice; give it once.", k)
		}
		if v == "" {
			return nil, badInput("subscribe", "The filter %s: needs a value.", k)
		}
		val, err := filterValue(k, v)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = val
	}
	return out, nil
}

// filterValue checks and normalises the value of filter k.
func filterValue(k, v string) (string, error) {
	lv := strings.ToLower(v)
	switch k {
	case "sig":
		lv = strings.TrimPrefix(lv, "sig-")
		if !isSIGName(lv) {
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

// cutFilter splits "key:value" or "key=value".
func cutFilter(a string) (key, value string, ok bool) {
	i := strings.IndexAny(a, ":=")
	if i <= 0 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
