package question

import (
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

func isDeprecationWord(w string) bool {
	st, err := knowledge.ParseStage(w)
	return err == nil && st == knowledge.StageDeprecated
}

// parseSubscribe reads "deprecations" and the filters after "subscribe".
func parseSubscribe(args []string) (knowledge.Question, error) {
	if len(args) == 0 || !isDeprecationWord(strings.ToLower(args[0])) {
		return knowledge.Question{}, badInput("subscribe", "I can only subscribe a channel to deprecation digests.")
	}
	f, err := parseFilters(args[1:])
	if err != nil {
		return knowledge.Question{}, err
	}
	return knowledge.Question{Kind: knowledge.AskSubscribe, Filters: f}, nil
}

// parseFilters reads key:value filters ("sig: network" and "sig=network"
// too): the syntax here, each value by knowledge.ParseFilter. It returns
// the filters given, their values normalised (sig without "sig-", from as
// 1.29, lower case), and fails naming the filter and what it allows.
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
	if len(joined) == 0 {
		return nil, nil
	}
	keys := knowledge.FilterKeys()
	given := make(map[string]string, len(joined))
	for _, a := range joined {
		k, v, ok := cutFilter(a)
		if !ok {
			return nil, badInput("subscribe", "%q is not a filter; filters look like sig:network.", knowledge.Echo(a))
		}
		k = strings.ToLower(k)
		if !slices.Contains(keys, k) {
			return nil, badInput("subscribe", "I don't know the filter %q; the filters are sig, from, schedule and format.", knowledge.Echo(k))
		}
		if _, dup := given[k]; dup {
			return nil, badInput("subscribe", "The filter %s: is given twice; give it once.", k)
		}
		if v == "" {
			return nil, badInput("subscribe", "The filter %s: needs a value.", k)
		}
		given[k] = v
	}
	f, err := knowledge.ParseFilter(given)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(given))
	for k := range given {
		switch k {
		case "sig":
			out[k] = f.SIG
		case "from":
			out[k] = f.From.String()
		case "schedule":
			out[k] = f.Schedule
		case "format":
			out[k] = f.Format
		}
	}
	return out, nil
}

// cutFilter splits "key:value" or "key=value".
func cutFilter(a string) (key, value string, ok bool) {
	i := strings.IndexAny(a, ":=")
	if i <= 0 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}
