package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Config says which cluster to read: a kubeconfig file ("" for
// $KUBECONFIG, then ~/.kube/config, then the in-cluster service account)
// and a context in it ("" for its current context).
type Config struct {
	Kubeconfig, Context string
}

// Client asks one apiserver over HTTP(S).
type Client struct {
	base *url.URL
	http *http.Client
	// Host names the cluster for messages: its server URL.
	Host string
	// RequestTimeout bounds one request; zero is 60 s.
	RequestTimeout time.Duration
}

// Connect resolves cfg as kubectl does and returns a client of the
// cluster it names. It fails with a message that names what was looked
// at when no kubeconfig or in-cluster account is found.
func Connect(cfg Config) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = cfg.Kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: cfg.Context})
	rc, err := cc.ClientConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			return nil, errors.New("no cluster to read: give --kubeconfig, set $KUBECONFIG, write ~/.kube/config, or run in a pod with a service account")
		}
		return nil, fmt.Errorf("read the kubeconfig: %w", err)
	}
	hc, err := rest.HTTPClientFor(rc)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", rc.Host, err)
	}
	base, _, err := rest.DefaultServerUrlFor(rc)
	if err != nil {
		return nil, fmt.Errorf("the kubeconfig's server %q: %w", rc.Host, err)
	}
	return NewClient(base, hc), nil
}

// NewClient returns a client of the apiserver at base through hc (which
// carries the credentials).
func NewClient(base *url.URL, hc *http.Client) *Client {
	return &Client{base: base, http: hc, Host: base.String()}
}

// StatusError is an answer that is not 200: Code is the HTTP status.
type StatusError struct {
	Path string
	Code int
	Text string // the apiserver's Status message, if any
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("GET %s: %d %s", e.Path, e.Code, http.StatusText(e.Code))
	if e.Text != "" {
		s += ": " + e.Text
	}
	return s
}

// Forbidden reports whether err is a 403 (or 401) from the apiserver.
func Forbidden(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Code == http.StatusForbidden || se.Code == http.StatusUnauthorized)
}

func statusIs(err error, code int) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Code == code
}

// maxBody caps what one answer may hold: a page of a list, /metrics.
const maxBody = 64 << 20

// get asks for path (with query) and hands the body to read.
func (c *Client) get(ctx context.Context, path string, query url.Values, accept string, read func(io.Reader) error) error {
	timeout := c.RequestTimeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, maxBody)
	if resp.StatusCode != http.StatusOK {
		var st struct {
			Message string `json:"message"`
		}
		b, _ := io.ReadAll(io.LimitReader(body, 4<<10))
		_ = json.Unmarshal(b, &st)
		return &StatusError{Path: path, Code: resp.StatusCode, Text: st.Message}
	}
	return read(body)
}

// getJSON asks for path and decodes its JSON answer into v.
func (c *Client) getJSON(ctx context.Context, path string, query url.Values, accept string, v any) error {
	return c.get(ctx, path, query, accept, func(r io.Reader) error {
		if err := json.NewDecoder(r).Decode(v); err != nil {
			return fmt.Errorf("GET %s: the answer is not the JSON expected: %w", path, err)
		}
		return nil
	})
}
