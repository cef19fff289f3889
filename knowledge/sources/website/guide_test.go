package website

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// guideRemoval is one API removal of the migration guide as read by hand.
type guideRemoval struct {
	Release    string
	GV         string
	Kinds      string // comma-separated
	ReplacedBy string
	Since      string // "available since" of ReplacedBy; empty when the guide gives none
}

// TestParseGuideEveryRemoval checks every API removal of every release
// section of the deprecated API migration guide, in the guide's order, with
// the release the guide says its replacement is available since: v1.29's
// flow control section names two versions to use (v1, available since
// v1.29, and v1beta3, since v1.26); the replacement is v1, as v1beta3 is
// itself gone in v1.32, and its date 1.29. v1.26's flow control section
// and v1.22's storage section (a date per kind) give the replacement none;
// PodSecurityPolicy has no replacement.
func TestParseGuideEveryRemoval(t *testing.T) {
	want := []guideRemoval{
		{"1.32", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema,PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io/v1", "1.29"},
		{"1.29", "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema,PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io/v1", "1.29"},
		{"1.27", "storage.k8s.io/v1beta1", "CSIStorageCapacity", "storage.k8s.io/v1", "1.24"},
		{"1.26", "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema,PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io/v1beta2", ""},
		{"1.26", "autoscaling/v2beta2", "HorizontalPodAutoscaler", "autoscaling/v2", "1.23"},
		{"1.25", "batch/v1beta1", "CronJob", "batch/v1", "1.21"},
		{"1.25", "discovery.k8s.io/v1beta1", "EndpointSlice", "discovery.k8s.io/v1", "1.21"},
		{"1.25", "events.k8s.io/v1beta1", "Event", "events.k8s.io/v1", "1.19"},
		{"1.25", "autoscaling/v2beta1", "HorizontalPodAutoscaler", "autoscaling/v2", "1.23"},
		{"1.25", "policy/v1beta1", "PodDisruptionBudget", "policy/v1", "1.21"},
		// PodSecurityPolicy has no API to move to: Pod Security Admission replaces it.
		{"1.25", "policy/v1beta1", "PodSecurityPolicy", "", ""},
		{"1.25", "node.k8s.io/v1beta1", "RuntimeClass", "node.k8s.io/v1", "1.20"},
		{"1.22", "admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration,ValidatingWebhookConfiguration", "admissionregistration.k8s.io/v1", "1.16"},
		{"1.22", "apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "apiextensions.k8s.io/v1", "1.16"},
		{"1.22", "apiregistration.k8s.io/v1beta1", "APIService", "apiregistration.k8s.io/v1", "1.10"},
		{"1.22", "authentication.k8s.io/v1beta1", "TokenReview", "authentication.k8s.io/v1", "1.6"},
		{"1.22", "authorization.k8s.io/v1beta1", "LocalSubjectAccessReview,SelfSubjectAccessReview,SubjectAccessReview,SelfSubjectRulesReview", "authorization.k8s.io/v1", "1.6"},
		{"1.22", "certificates.k8s.io/v1beta1", "CertificateSigningRequest", "certificates.k8s.io/v1", "1.19"},
		{"1.22", "coordination.k8s.io/v1beta1", "Lease", "coordination.k8s.io/v1", "1.14"},
		{"1.22", "extensions/v1beta1", "Ingress", "networking.k8s.io/v1", "1.19"},
		{"1.22", "networking.k8s.io/v1beta1", "Ingress", "networking.k8s.io/v1", "1.19"},
		{"1.22", "networking.k8s.io/v1beta1", "IngressClass", "networking.k8s.io/v1", "1.19"},
		{"1.22", "rbac.authorization.k8s.io/v1beta1", "ClusterRole,ClusterRoleBinding,Role,RoleBinding", "rbac.authorization.k8s.io/v1", "1.8"},
		{"1.22", "scheduling.k8s.io/v1beta1", "PriorityClass", "scheduling.k8s.io/v1", "1.14"},
		{"1.22", "storage.k8s.io/v1beta1", "CSIDriver,CSINode,StorageClass,VolumeAttachment", "storage.k8s.io/v1", ""},
		{"1.16", "extensions/v1beta1", "NetworkPolicy", "networking.k8s.io/v1", "1.8"},
		{"1.16", "extensions/v1beta1", "DaemonSet", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta2", "DaemonSet", "apps/v1", "1.9"},
		{"1.16", "extensions/v1beta1", "Deployment", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta1", "Deployment", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta2", "Deployment", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta1", "StatefulSet", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta2", "StatefulSet", "apps/v1", "1.9"},
		{"1.16", "extensions/v1beta1", "ReplicaSet", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta1", "ReplicaSet", "apps/v1", "1.9"},
		{"1.16", "apps/v1beta2", "ReplicaSet", "apps/v1", "1.9"},
		{"1.16", "extensions/v1beta1", "PodSecurityPolicy", "policy/v1beta1", "1.10"},
	}
	c := parseDoc(t, guideName)
	var got []guideRemoval
	for _, n := range c.Notices {
		if n.Kind != knowledge.NoticeRemoval || n.API == nil || n.KEP != 0 || n.Source != guideName || n.Line <= 0 {
			t.Errorf("notice %q: kind %s, API %v, KEP %d, source %q, line %d; want an API removal of the guide",
				n.Title, n.Kind, n.API, n.KEP, n.Source, n.Line)
			continue
		}
		since := ""
		if !n.API.Since.IsZero() {
			since = n.API.Since.String()
		}
		got = append(got, guideRemoval{n.Release.String(), n.API.GroupVersion, strings.Join(n.API.Kinds, ","), n.API.ReplacedBy, since})
		if wantTitle := apiTitle(*n.API); n.Title != wantTitle {
			t.Errorf("title %q, want %q", n.Title, wantTitle)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("API removals (-want +got):\n%s", diff)
	}
	if len(c.Skipped) != 0 || len(c.Releases) != 0 || len(c.Mentions) != 0 {
		t.Errorf("got %d skips, %d releases, %d mentions; want only notices", len(c.Skipped), len(c.Releases), len(c.Mentions))
	}
	wantSrc := []knowledge.Source{{ID: guideName, Name: "Kubernetes deprecated API migration guide (en)",
		Kind: knowledge.SourceDeprecationGuide, Lang: "en"}}
	if diff := cmp.Diff(wantSrc, c.Sources); diff != "" {
		t.Errorf("source (-want +got):\n%s", diff)
	}
}

// TestParseGuideText checks that a removal's text carries the guide's
// notable changes (by the field names it lists), not another section's.
func TestParseGuideText(t *testing.T) {
	c := parseDoc(t, guideName)
	tests := []struct {
		title   string
		has     []string
		hasNone []string
	}{
		{"FlowSchema and PriorityLevelConfiguration (flowcontrol.apiserver.k8s.io/v1beta3)",
			[]string{"nominalConcurrencyShares"}, []string{"assuredConcurrencyShares"}},
		{"Ingress (networking.k8s.io/v1beta1)", []string{"spec.defaultBackend", "pathType"}, []string{"IngressClass"}},
		{"Event (events.k8s.io/v1beta1)", []string{"deprecatedFirstTimestamp", "reportingInstance"}, nil},
		{"CustomResourceDefinition (apiextensions.k8s.io/v1beta1)", []string{"x-kubernetes-preserve-unknown-fields"}, nil},
	}
	for _, tt := range tests {
		var text string
		for _, n := range c.Notices {
			if n.Title == tt.title {
				text = n.Text
			}
		}
		if text == "" {
			t.Errorf("%s: no notice", tt.title)
			continue
		}
		for _, w := range tt.has {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q", tt.title, w)
			}
		}
		for _, w := range tt.hasNone {
			if strings.Contains(text, w) {
				t.Errorf("%s: text has %q from another section", tt.title, w)
			}
		}
		if strings.Contains(text, "**") || strings.Contains(text, "`") {
			t.Errorf("%s: text keeps Markdown markers: %q", tt.title, text)
		}
	}
}

// TestAvailableSince checks which "available since" the guide's removals
// take: only the one that dates the replacement.
func TestAvailableSince(t *testing.T) {
	const g = "a.example.io"
	tests := []struct {
		text, replacedBy, want string
	}{
		{"- Migrate manifests and API clients to use the a.example.io/v1 API version, available since v1.29.", g + "/v1", "1.29"},
		{"- Migrate to use the a.example.io/v1 API version, available since v1.29, or the a.example.io/v1beta3 API version, available since v1.26.", g + "/v1", "1.29"},
		{"- Migrate to use the a.example.io/v1beta3 API version, available since v1.26, or the a.example.io/v1 API version, available since v1.29.", g + "/v1", ""},
		{"- Migrate to use the a.example.io/v1 API version, or the a.example.io/v1beta3 API version, available since v1.26.", g + "/v1", ""},
		{"- Migrate manifests and API clients to use the a.example.io/v1 API version.", g + "/v1", ""},
		{"- Migrate to use the a.example.io/v1 API version\n- Widget is available in a.example.io/v1 since v1.19.", g + "/v1", ""},
		{"- Migrate manifests and API client to use the a.example.io/v1 API version, available since 1.10.", g + "/v1", "1.10"},
		{"- Migrate to use the a.example.io/v1 API version, available since v1.29.", "", ""},
	}
	for _, tt := range tests {
		got := availableSince(tt.text, tt.replacedBy)
		if s := got.String(); got.IsZero() && tt.want != "" || !got.IsZero() && s != tt.want {
			t.Errorf("availableSince(%q, %q) = %v, want %q", tt.text, tt.replacedBy, got, tt.want)
		}
	}
}
