package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// digestDB writes a database with made-up notices and three subscribed
// channels: C1 (everything), C2 (from:1.41, full) and C3 on two platforms.
func digestDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v := knowledge.MustVersion
	k := &knowledge.Knowledge{Releases: []knowledge.ReleaseRecord{
		{Release: knowledge.Release{Version: v("1.40")}, Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Release: v("1.40"), Title: "Gadget v1beta1", Text: "Move to v1.", Source: "guide",
				API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", ReplacedBy: "gadgets.example.io/v1"}}}},
		{Release: knowledge.Release{Version: v("1.42")}, Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeDeprecation, Release: v("1.42"), Title: "The sprocket flag", Text: "Use the new flag.", Source: "notes"}}},
	}}
	if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
		t.Fatal(err)
	}
	subs := []digest.Subscription{
		{Platform: "slack", Workspace: "T1", Channel: "C1", Filter: digest.Filter{Schedule: "release", Format: "compact"}},
		{Platform: "slack", Workspace: "T1", Channel: "C2", Filter: digest.Filter{From: v("1.41"), Schedule: "weekly", Format: "full"}},
		{Platform: "slack", Workspace: "T1", Channel: "C3", Filter: digest.Filter{Schedule: "release", Format: "compact"}},
		{Platform: "discord", Workspace: "G1", Channel: "C3", Filter: digest.Filter{Schedule: "release", Format: "compact"}, Seen: digest.Seen{Through: 1 << 40}},
	}
	for _, s := range subs {
		if _, err := db.Subscriptions().SaveSubscription(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func digestRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), append([]string{"digest"}, args...), stdio{in: strings.NewReader(""), out: &out, err: &errb, getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func TestDigestPreview(t *testing.T) {
	db := digestDB(t)
	code, out, errs := digestRun("preview", "--channel", "C1", "--db", db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"slack/T1/C1", "not sent", "Deprecation digest: Kubernetes 1.40 to 1.42", "Gadget v1beta1", "The sprocket flag"} {
		if !strings.Contains(out, want) {
			t.Errorf("preview lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Move to v1.") {
		t.Errorf("a compact preview quotes the notes:\n%s", out)
	}

	code, out, _ = digestRun("preview", "--db", db, "--json", "--channel", "slack/T1/C2")
	var a knowledge.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil || code != exitOK {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, out)
	}
	if len(a.Notices) != 1 || a.Notices[0].Title != "The sprocket flag" || a.Notices[0].Text == "" {
		t.Errorf("from:1.41 full: %+v", a.Notices)
	}

	code, out, _ = digestRun("preview", "--db", db, "--channel", "C3", "--platform", "discord")
	if code != exitOK || !strings.Contains(out, "Nothing new for discord/G1/C3") {
		t.Errorf("nothing new: exit %d\n%s", code, out)
	}

	// Previewing sends nothing and queues nothing.
	sdb, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if all, _ := sdb.Outbox().ListDeliveries(context.Background()); len(all) != 0 {
		t.Errorf("preview queued %d deliveries", len(all))
	}
}

func TestDigestPreviewRefusals(t *testing.T) {
	db := digestDB(t)
	tests := []struct {
		args []string
		code int
		says string
	}{
		{nil, exitBadInput, "bot digest preview --channel"},
		{[]string{"send"}, exitBadInput, "preview prints"},
		{[]string{"preview", "--db", db}, exitBadInput, "give one channel with --channel"},
		{[]string{"preview", "--db", db, "--channel", "C9"}, exitNotFound, `no subscription for channel "C9"`},
		{[]string{"preview", "--db", db, "--channel", "C3"}, exitBadInput, "(discord/G1/C3, slack/T1/C3)"},
		{[]string{"preview", "--db", filepath.Join(t.TempDir(), "none.db"), "--channel", "C1"}, exitNotFound, "there is no database"},
		{[]string{"preview", "--db", db, "--channel", "C1", "--nope"}, exitBadInput, "unknown flag --nope"},
	}
	for _, tt := range tests {
		code, _, errs := digestRun(tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.says) {
			t.Errorf("%v: exit %d %q; want %d saying %q", tt.args, code, errs, tt.code, tt.says)
		}
	}
}
