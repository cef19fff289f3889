package question

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// parseIs reads the yes/no questions of the grammar after "is": kep N
// STAGE [in VERSION] (KEP-N, N and #N too) and VERSION supported. They are
// the canonical forms the free-text reader writes for "is sidecar
// containers stable?" and "is 1.31 still supported?".
func parseIs(args []string) (knowledge.Question, error) {
	if len(args) == 2 && looksVersion(args[0]) && args[1] == "supported" {
		v, err := knowledge.ParseVersion(args[0])
		if err != nil {
			return knowledge.Question{}, badInput("is", "%q is not a release like 1.29.", knowledge.Echo(args[0]))
		}
		return knowledge.Question{Kind: knowledge.AskSupported, Version: v}, nil
	}
	if len(args) > 0 && args[0] == "kep" {
		args = args[1:]
	}
	if len(args) < 2 {
		return knowledge.Question{}, badInput("is", "Ask whether a KEP is at a stage, or a release supported.")
	}
	n, ok, err := kepToken(args[0])
	if !ok {
		return knowledge.Question{}, badInput("is", "%q is not a KEP number.", knowledge.Echo(args[0]))
	}
	if err != nil {
		return knowledge.Question{}, err
	}
	rest := args[1:]
	var v knowledge.Version
	if k := len(rest); k >= 3 && rest[k-2] == "in" {
		if v, err = knowledge.ParseVersion(rest[k-1]); err != nil {
			return knowledge.Question{}, badInput("is", "%q is not a release like 1.29.", knowledge.Echo(rest[k-1]))
		}
		rest = rest[:k-2]
	}
	st, err := knowledge.ParseStage(strings.Join(rest, " "))
	if err != nil {
		return knowledge.Question{}, badInput("is", "%q is not a stage; use alpha, beta, ga, deprecated or removed.", short(strings.Join(rest, " ")))
	}
	return knowledge.Question{Kind: knowledge.AskKEP, KEP: n, Stage: st, Version: v}, nil
}
