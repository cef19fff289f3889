package cluster

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
)

// DeprecatedRequest is one row of the apiserver's stable metric
// apiserver_requested_deprecated_apis: a deprecated API version requested
// since the apiserver started.
type DeprecatedRequest struct {
	Group, Version, Resource, Subresource, RemovedRelease string
}

// GroupVersion writes the request's apiVersion.
func (d DeprecatedRequest) GroupVersion() string {
	if d.Group == "" {
		return d.Version
	}
	return d.Group + "/" + d.Version
}

const deprecatedMetric = "apiserver_requested_deprecated_apis"

// DeprecatedRequests reads the metric from /metrics (the Prometheus text
// format): the rows whose value is not 0.
func (c *Client) DeprecatedRequests(ctx context.Context) ([]DeprecatedRequest, error) {
	var out []DeprecatedRequest
	err := c.get(ctx, "/metrics", nil, "text/plain", func(r io.Reader) error {
		var err error
		out, err = parseDeprecated(r)
		return err
	})
	return out, err
}

// parseDeprecated reads the metric's rows from Prometheus text.
func parseDeprecated(r io.Reader) ([]DeprecatedRequest, error) {
	var out []DeprecatedRequest
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, deprecatedMetric+"{")
		if !ok {
			continue
		}
		labels, value, ok := cutLabels(rest)
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.Fields(value + " 0")[0], 64); err != nil || v == 0 {
			continue
		}
		out = append(out, DeprecatedRequest{Group: labels["group"], Version: labels["version"], Resource: labels["resource"],
			Subresource: labels["subresource"], RemovedRelease: labels["removed_release"]})
	}
	return out, sc.Err()
}

// cutLabels reads `name="value",...}` and returns the labels and what
// follows the closing brace.
func cutLabels(s string) (map[string]string, string, bool) {
	labels := map[string]string{}
	for {
		s = strings.TrimLeft(s, " ,")
		if strings.HasPrefix(s, "}") {
			return labels, s[1:], true
		}
		eq := strings.Index(s, "=\"")
		if eq <= 0 {
			return nil, "", false
		}
		name := strings.TrimSpace(s[:eq])
		s = s[eq+2:]
		var b strings.Builder
		i := 0
		for ; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
				switch s[i] {
				case 'n':
					b.WriteByte('\n')
				default:
					b.WriteByte(s[i])
				}
				continue
			}
			b.WriteByte(s[i])
		}
		if i == len(s) {
			return nil, "", false
		}
		labels[name] = b.String()
		s = s[i+1:]
	}
}
