package digest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// cveKnowledge is subKnowledge with made-up vulnerability records: one of
// Kubernetes affecting 1.42.0, one of Kubernetes fixed before 1.40, one of
// another product, one withdrawn.
func cveKnowledge() *knowledge.Knowledge {
	k := subKnowledge()
	rng := func(evs ...knowledge.VulnEvent) []knowledge.VulnRange {
		return []knowledge.VulnRange{{Type: "SEMVER", Events: evs}}
	}
	in := func(v string) knowledge.VulnEvent { return knowledge.VulnEvent{Introduced: v} }
	fix := func(v string) knowledge.VulnEvent { return knowledge.VulnEvent{Fixed: v} }
	k.Sources = append(k.Sources, knowledge.Source{ID: "vulndb", Name: "test records", Kind: knowledge.SourceVulnDB})
	k.Vulns = []knowledge.Vuln{
		{ID: "GO-2030-0001", Aliases: []string{"CVE-2030-0001"}, Summary: "Sprocket escape", Source: "vulndb",
			Affected: []knowledge.VulnAffected{{Module: "k8s.io/kubernetes", Ranges: rng(in("1.42.0"), fix("1.42.3"))}}},
		{ID: "GO-2030-0002", Summary: "Old cog leak", Source: "vulndb",
			Affected: []knowledge.VulnAffected{{Module: "k8s.io/kubernetes", Ranges: rng(in("0"), fix("1.39.1"))}}},
		{ID: "GO-2030-0003", Summary: "Gadget controller injection", Source: "vulndb",
			Affected: []knowledge.VulnAffected{{Module: "k8s.io/ingress-nginx", Ranges: rng(in("0"))}}},
		{ID: "GO-2030-0004", Summary: "Withdrawn one", Source: "vulndb", Withdrawn: "2030-01-01T00:00:00Z",
			Affected: []knowledge.VulnAffected{{Module: "k8s.io/kubernetes", Ranges: rng(in("0"))}}},
	}
	return k
}

// TestCVEDigestsBuildFromTheirTopic: a deprecations filter gets no
// records, a cves filter gets only the records of Kubernetes (not
// withdrawn) that affect a release it knows, and from: keeps those after
// the release.
func TestCVEDigestsBuildFromTheirTopic(t *testing.T) {
	f := newSubFixture(t)
	if err := f.db.Knowledge().ReplaceKnowledge(context.Background(), cveKnowledge()); err != nil {
		t.Fatal(err)
	}
	set, err := digest.LoadNoticeSet(context.Background(), f.db.Knowledge(), f.db.Subscriptions())
	if err != nil {
		t.Fatal(err)
	}
	if d, _, ok := digest.BuildDigest(set, digest.Filter{}, digest.Seen{}, "w"); !ok || len(d.Vulns) != 0 || d.Count() != 3 {
		t.Errorf("deprecations: %d notices, %d records", d.Count(), len(d.Vulns))
	}
	cves := digest.Filter{Topics: []string{digest.TopicCVEs}}
	d, seen, ok := digest.BuildDigest(set, cves, digest.Seen{}, "w")
	if !ok || d.Count() != 0 || len(d.Vulns) != 1 || d.Vulns[0].ID != "GO-2030-0001" || d.Vulns[0].Lines[0].Affected != "1.42.0" || d.Vulns[0].Lines[0].FixedIn != "1.42.3" {
		t.Fatalf("cves: %+v", d)
	}
	if !strings.HasPrefix(d.Title, "CVE digest: 1 new vulnerability record") {
		t.Errorf("title %q", d.Title)
	}
	if _, _, again := digest.BuildDigest(set, cves, seen, "w"); again {
		t.Error("the record came again once seen")
	}
	cves.From = knowledge.MustVersion("1.42")
	if _, _, ok := digest.BuildDigest(set, cves, digest.Seen{}, "w"); ok {
		t.Error("from:1.42 kept a record of 1.42")
	}
	a := digest.RenderDigest(&d, digest.FormatCompact)
	if a.CVEs == nil || len(a.CVEs.List) != 1 || !strings.Contains(a.Notes[0], "unsubscribe cves") || a.Facts[0].Name != "CVE-2030-0001" {
		t.Errorf("rendered: %+v", a)
	}
}

// TestSubscribeCVEsBesideDeprecations: a channel adds CVE digests to its
// deprecation digests, keeping the filters it does not give again and how
// far it was told of deprecations; CVE digests take no sig:; each topic is
// stopped alone.
func TestSubscribeCVEsBesideDeprecations(t *testing.T) {
	ctx := context.Background()
	f := newSubFixture(t)
	if err := f.db.Knowledge().ReplaceKnowledge(ctx, cveKnowledge()); err != nil {
		t.Fatal(err)
	}
	admin := slackUser("admin")
	if _, err := f.ask(t, "subscribe deprecations sig:network from:1.40 schedule:weekly", admin); err != nil {
		t.Fatal(err)
	}
	before, _ := f.db.Subscriptions().FindSubscriptionByChannel(ctx, digest.OriginChannel(admin))
	if _, err := f.ask(t, "subscribe cves sig:network", admin); err == nil || !strings.Contains(err.Error(), "no sig: filter") {
		t.Errorf("subscribe cves sig:network: %v", err)
	}
	a, err := f.ask(t, "subscribe cves", admin)
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := f.db.Subscriptions().FindSubscriptionByChannel(ctx, digest.OriginChannel(admin))
	if !sub.Filter.Has(digest.TopicCVEs) || !sub.Filter.Has(digest.TopicDeprecations) || sub.Filter.Schedule != "weekly" || sub.Filter.SIG != "network" ||
		sub.Seen.Through != before.Seen.Through || sub.Seen.CVEs == 0 {
		t.Errorf("after subscribe cves: %+v (before %+v)", sub, before)
	}
	if a.Title != "Subscription updated" || !strings.Contains(a.Text, "and new vulnerability records (CVEs)") || !strings.Contains(a.Text, "will hold 1 notice from 1.41.") {
		t.Errorf("answer %q / %q", a.Title, a.Text)
	}
	list, _ := f.ask(t, "subscriptions", admin)
	if !strings.HasPrefix(list.Text, "Deprecation and CVE digests: a weekly digest") {
		t.Errorf("subscriptions: %q", list.Text)
	}
	if a, err := f.ask(t, "unsubscribe cves", admin); err != nil || !strings.Contains(a.Text, "still gets deprecation digests") {
		t.Fatalf("unsubscribe cves: %v %v", a, err)
	}
	sub, _ = f.db.Subscriptions().FindSubscriptionByChannel(ctx, digest.OriginChannel(admin))
	if sub == nil || sub.Filter.Has(digest.TopicCVEs) || !sub.Filter.Has(digest.TopicDeprecations) {
		t.Errorf("after unsubscribe cves: %+v", sub)
	}
	if _, err := f.ask(t, "unsubscribe cves", admin); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("unsubscribe cves twice: %v", err)
	}
	if _, err := f.ask(t, "unsubscribe deprecations", admin); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Subscriptions().FindSubscriptionByChannel(ctx, digest.OriginChannel(admin)); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("the last topic stopped, the subscription stays: %v", err)
	}
}
