package discord

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/store"
)

// addAPIFixture adds to c what a few releases of k8s.io/api say of a few
// types, shaped like the real lifecycle: modules read at 1.20 to 1.36,
// Ingress and CronJob moved to v1, PodSecurityPolicy removed with no
// replacement, a FlowSchema chain, and a type deprecated but still served
// in 1.36 with its removal planned. Dates and sources are made up.
func addAPIFixture(c *knowledge.Corpus) {
	v := knowledge.MustVersion
	mod := func(minor string) string { return knowledge.APISourceID("k8s.io/api", "v0."+minor+".0") }
	for _, m := range []string{"20", "21", "22", "24", "25", "31", "32", "36"} {
		c.Sources = append(c.Sources, knowledge.Source{ID: mod(m), Name: "k8s.io/api v0." + m + ".0", Kind: knowledge.SourceAPILifecycle, AsOf: "2026-01-01"})
	}
	ref := func(g, ver, k string) knowledge.APIRef { return knowledge.APIRef{Group: g, Version: ver, Kind: k} }
	rep := func(g, ver, k string) *knowledge.APIRef { r := ref(g, ver, k); return &r }
	fc := "flowcontrol.apiserver.k8s.io"
	c.APITypes = append(c.APITypes,
		knowledge.APIType{API: ref("extensions", "v1beta1", "Ingress"), First: v("1.20"), Last: v("1.21"), Introduced: v("1.1"), Deprecated: v("1.14"),
			Removed: v("1.22"), Replacement: rep("networking.k8s.io", "v1", "Ingress"), MarkedIn: v("1.21"), Source: mod("21")},
		knowledge.APIType{API: ref("networking.k8s.io", "v1", "Ingress"), First: v("1.20"), Last: v("1.36"), Introduced: v("1.19"), MarkedIn: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("batch", "v1beta1", "CronJob"), First: v("1.20"), Last: v("1.24"), Introduced: v("1.8"), Deprecated: v("1.21"),
			Removed: v("1.25"), Replacement: rep("batch", "v1", "CronJob"), MarkedIn: v("1.24"), Source: mod("24")},
		knowledge.APIType{API: ref("batch", "v1", "CronJob"), First: v("1.21"), Last: v("1.36"), Introduced: v("1.21"), MarkedIn: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("policy", "v1beta1", "PodSecurityPolicy"), First: v("1.20"), Last: v("1.24"), Introduced: v("1.10"), Deprecated: v("1.21"),
			Removed: v("1.25"), MarkedIn: v("1.24"), Source: mod("24")},
		knowledge.APIType{API: ref("apps", "v1", "Deployment"), First: v("1.20"), Last: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("", "v1", "Secret"), First: v("1.20"), Last: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("", "v1", "ConfigMap"), First: v("1.20"), Last: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref(fc, "v1beta3", "FlowSchema"), First: v("1.31"), Last: v("1.31"), Introduced: v("1.26"), Deprecated: v("1.29"),
			Removed: v("1.32"), Replacement: rep(fc, "v1", "FlowSchema"), MarkedIn: v("1.31"), Source: mod("31")},
		knowledge.APIType{API: ref(fc, "v1", "FlowSchema"), First: v("1.31"), Last: v("1.36"), Introduced: v("1.29"), MarkedIn: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("storage.k8s.io", "v1beta1", "VolumeAttributesClass"), First: v("1.31"), Last: v("1.36"), Introduced: v("1.31"),
			Deprecated: v("1.34"), Removed: v("1.39"), Replacement: rep("storage.k8s.io", "v1", "VolumeAttributesClass"), MarkedIn: v("1.36"), Source: mod("36")},
		knowledge.APIType{API: ref("storage.k8s.io", "v1", "VolumeAttributesClass"), First: v("1.36"), Last: v("1.36"), Introduced: v("1.34"), MarkedIn: v("1.36"), Source: mod("36")},
	)
}

// scanEngine is testEngine over testdata/corpus.json with the API fixture
// added: an engine that answers scans and api questions.
func scanEngine(t testing.TB) *engine.Engine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("read corpus: %v", err)
	}
	addAPIFixture(&c)
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), knowledge.Compile(&c)); err != nil {
		t.Fatal(err)
	}
	return engine.New(db.Knowledge(), engine.WithManifestReader(manifest.ChatReader))
}
