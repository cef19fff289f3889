package knowledge

// EffectWhat is the sort of thing a typed change is about.
type EffectWhat string

// The things release notes change.
const (
	EffectAPI        EffectWhat = "api"        // an API group/version, with kinds: resource.k8s.io/v1beta1 ResourceClaim
	EffectGate       EffectWhat = "gate"       // a feature gate: EtcdLearnerMode
	EffectFeature    EffectWhat = "feature"    // a feature named like a gate but not called one: JobReadyPods
	EffectFlag       EffectWhat = "flag"       // a command-line flag: --cloud-config
	EffectMetric     EffectWhat = "metric"     // a metric: apiserver_storage_objects
	EffectField      EffectWhat = "field"      // a field of an API or configuration: spec.podOS
	EffectAnnotation EffectWhat = "annotation" // an annotation or label: seccomp.security.alpha.kubernetes.io/pod
	EffectCommand    EffectWhat = "command"    // a command or subcommand: kubectl run
	EffectComponent  EffectWhat = "component"  // a plugin, provider, driver or mode: the in-tree Portworx volume plugin
	EffectEnv        EffectWhat = "env"        // an environment variable: KUBECTL_EXPLAIN_OPENAPIV3
	// EffectEnhancement is the enhancement the entry links, graduated
	// without a code name ("Graduated image volume sources to beta"):
	// Name is "KEP-4639".
	EffectEnhancement EffectWhat = "enhancement"
)

// EffectAction is what happened to the thing.
type EffectAction string

// The actions.
const (
	EffectAdded      EffectAction = "added"
	EffectDeprecated EffectAction = "deprecated"
	EffectRemoved    EffectAction = "removed"
	EffectGraduated  EffectAction = "graduated" // reached Stage
	EffectDefault    EffectAction = "default"   // its default changed to Value
)

// Effect is one typed change a release-note entry states: what it is
// about, what happened to it, and what replaces it. It holds names and
// words of a closed set, never a sentence of the notes.
type Effect struct {
	What EffectWhat `json:"what"`
	// Name is the thing's code name ("--wait-interval", "EtcdLearnerMode",
	// "resource.k8s.io/v1beta1"); for a component, the words that name
	// it ("in-tree Portworx volume plugin"). Empty only when Of says
	// whose unnamed things they are.
	Name  string   `json:"name,omitempty"`
	Kinds []string `json:"kinds,omitempty"` // an API's kinds
	// Of is the component or command the thing belongs to ("kube-proxy",
	// "kubectl"): an API version Of "kubectl" is kubectl's support for it,
	// not the API server's.
	Of     string       `json:"of,omitempty"`
	Action EffectAction `json:"action"`
	Stage  Stage        `json:"stage,omitempty"` // graduated: the stage reached
	Value  string       `json:"value,omitempty"` // default: the new default ("true", "false", "nftables")
	// Replacement is what to use instead, as the entry names it.
	Replacement string `json:"replacement,omitempty"`
}

// HasAction reports whether one of es is of action a.
func HasAction(es []Effect, a EffectAction) bool {
	for i := range es {
		if es[i].Action == a {
			return true
		}
	}
	return false
}
