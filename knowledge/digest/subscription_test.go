package digest_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/question"
)

func TestParseFilter(t *testing.T) {
	v := knowledge.MustVersion
	tests := []struct {
		in   map[string]string
		want digest.Filter
	}{
		{nil, digest.Filter{Schedule: "release", Format: "compact"}},
		{map[string]string{"sig": "network"}, digest.Filter{SIG: "network", Schedule: "release", Format: "compact"}},
		{map[string]string{"sig": "SIG-Network"}, digest.Filter{SIG: "network", Schedule: "release", Format: "compact"}},
		{map[string]string{"from": "v1.29.3"}, digest.Filter{From: v("1.29"), Schedule: "release", Format: "compact"}},
		{map[string]string{"schedule": "Weekly", "format": "FULL"}, digest.Filter{Schedule: "weekly", Format: "full"}},
		{map[string]string{"Schedule": " daily ", "from": "1.30"}, digest.Filter{From: v("1.30"), Schedule: "daily", Format: "compact"}},
	}
	for _, tt := range tests {
		got, err := digest.ParseFilter(tt.in)
		if err != nil {
			t.Errorf("ParseFilter(%v): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseFilter(%v) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseFilterRefusesWithAClearMessage(t *testing.T) {
	tests := []struct {
		in   map[string]string
		want []string // words the message must hold
	}{
		{map[string]string{"from": "abc"}, []string{"from:abc is not a release", "from:1.29"}},
		{map[string]string{"schedule": "hourly"}, []string{"schedule:hourly is not allowed", "schedule:release, schedule:weekly, schedule:daily"}},
		{map[string]string{"format": "tiny"}, []string{"format:tiny is not allowed", "format:compact, format:full"}},
		{map[string]string{"sig": "net work!"}, []string{"is not a SIG name", "sig:network"}},
		{map[string]string{"color": "red"}, []string{`the filter "color"`, "sig, from, schedule and format"}},
		{map[string]string{"sig": ""}, []string{"sig: needs a value"}},
		{map[string]string{"from": "<!channel>"}, []string{"is not a release"}},
	}
	for _, tt := range tests {
		_, err := digest.ParseFilter(tt.in)
		if knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("ParseFilter(%v) = %v, want EBADINPUT", tt.in, err)
			continue
		}
		msg := err.Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParseFilter(%v) message %q lacks %q", tt.in, msg, w)
			}
		}
		if strings.ContainsAny(msg, "<>!") && strings.Contains(msg, "channel>") {
			t.Errorf("ParseFilter(%v) echoes markup: %q", tt.in, msg)
		}
	}
}

func TestFilterStringRoundTrips(t *testing.T) {
	f := digest.Filter{SIG: "api-machinery", From: knowledge.MustVersion("1.29"), Schedule: "weekly", Format: "full"}
	if got, want := f.String(), "sig:api-machinery from:1.29 schedule:weekly format:full"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	q, err := question.Parse("subscribe deprecations " + f.String())
	if err != nil {
		t.Fatal(err)
	}
	back, err := digest.ParseFilter(q.Filters)
	if err != nil || !reflect.DeepEqual(back, f) {
		t.Fatalf("parse of String() = %+v, %v; want %+v", back, err, f)
	}
}

func TestChannelRefValidate(t *testing.T) {
	good := []digest.ChannelRef{
		{Platform: "slack", Workspace: "T01", Channel: "C0123"},
		{Platform: "discord", Workspace: "1234567890", Channel: "987654321"},
		{Platform: "slack", Channel: "C1"},
	}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	bad := []digest.ChannelRef{
		{Platform: "slack"},
		{Channel: "C1"},
		{Platform: "slack", Workspace: "T/1", Channel: "C1"},
		{Platform: "slack", Channel: "C1\n"},
		{Platform: "slack", Channel: strings.Repeat("C", 65)},
	}
	for _, c := range bad {
		if err := c.Validate(); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("%+v: %v, want EBADINPUT", c, err)
		}
	}
	if got := good[0].ID(); got != "slack/T01/C0123" {
		t.Errorf("ID() = %q", got)
	}
}

func TestDeliveryNonce(t *testing.T) {
	d := digest.Delivery{Key: digest.DeliveryKey(digest.ChannelRef{Platform: "discord", Workspace: "g", Channel: "c"}, "abc")}
	n0, n1 := d.Nonce(0), d.Nonce(1)
	if len(n0) > 25 || len(n0) != 24 {
		t.Errorf("nonce %q: want 24 characters (Discord allows 25)", n0)
	}
	if n0 == n1 {
		t.Error("parts share a nonce")
	}
	again := digest.Delivery{Key: d.Key}
	if again.Nonce(0) != n0 {
		t.Error("nonce differs for the same delivery and part")
	}
	other := digest.Delivery{Key: digest.DeliveryKey(digest.ChannelRef{Platform: "discord", Workspace: "g", Channel: "c2"}, "abc")}
	if other.Nonce(0) == n0 {
		t.Error("two channels share a nonce")
	}
}

// TestChannelsNamed: a channel is named by its ID or its full
// platform/workspace/channel, on one platform when one is given.
func TestChannelsNamed(t *testing.T) {
	subs := []digest.Subscription{
		{Platform: "slack", Workspace: "T1", Channel: "C1"},
		{Platform: "discord", Workspace: "7", Channel: "C1"},
		{Platform: "slack", Workspace: "T1", Channel: "C2"},
	}
	ids := func(refs []digest.ChannelRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.ID())
		}
		return out
	}
	for _, tc := range []struct {
		id, platform string
		want         []string
	}{
		{"C1", "", []string{"slack/T1/C1", "discord/7/C1"}},
		{"C1", "discord", []string{"discord/7/C1"}},
		{"slack/T1/C2", "", []string{"slack/T1/C2"}},
		{"C3", "", nil},
	} {
		if got := ids(digest.ChannelsNamed(subs, tc.id, tc.platform)); !cmp.Equal(got, tc.want) {
			t.Errorf("ChannelsNamed(%q, %q) = %v, want %v", tc.id, tc.platform, got, tc.want)
		}
	}
}
