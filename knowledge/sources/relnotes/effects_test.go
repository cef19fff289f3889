package relnotes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// effectCase is one real entry read by hand: the typed changes its text
// states (want, written as effectString writes them: "removed gate
// EtcdLearnerMode of kubeadm", "deprecated flag --x -> --y", "graduated
// feature X to stable", "default gate X = true"), the notice it makes,
// and why. A component is named by the words that name it in the text;
// the rules' name matches when it holds them.
type effectCase struct {
	release string
	pr      int
	want    []string
	notice  knowledge.NoticeKind
	why     string
}

// effectCases are every entry of the notes of 1.33 and 1.35 whose text
// holds "remov", "deprecat", "drop", "promot", "graduat", "by default" or
// "no longer served/supported" (an unpicked sample: 75 and 67 entries),
// and 35 entries of other releases chosen for what the sample lacks (API
// versions, environment variables, annotations, commands, components,
// replacements, reverts, kubectl's support). Each was read by hand from
// release-notes-draft.json.
var effectCases = []effectCase{
	// 1.33: every entry of the sample.
	{"1.33", 127525, nil, "", "a new gate told only as a way back (enabled by default): no change of our words"},
	{"1.33", 127897, nil, "", "a behaviour; \"until the feature gate graduated\" is a condition"},
	{"1.33", 128184, []string{"added gate StorageCapacityScoring", "removed feature VolumeCapacityPriority"}, rem, "a new gate; the old alpha feature \"was replaced with this\""},
	{"1.33", 128810, []string{"added metric scheduler_cache_size", "deprecated metric scheduler_scheduler_cache_size -> scheduler_cache_size"}, dep, "\"Implemented\" a metric; the other \"is now deprecated in favor of\" it"},
	{"1.33", 128906, []string{"removed metric pod_scheduling_duration_seconds -> pod_scheduling_sli_duration_seconds"}, rem, "removed; the next sentence says to migrate"},
	{"1.33", 128971, []string{"graduated feature MultiCIDRServiceAllocator to stable", "graduated feature DisableAllocatorDualWrite to beta"}, upg, "two graduations, action required"},
	{"1.33", 129131, nil, "", "a preflight check removed: no thing users name"},
	{"1.33", 129174, nil, "", "a limitation removed"},
	{"1.33", 129186, nil, "", "inactive serving code of an API no longer served removed"},
	{"1.33", 129207, []string{"removed api v1alpha1 [ValidatingAdmissionPolicy,ValidatingAdmissionPolicyBinding]"}, rem, "support for a version of two kinds removed"},
	{"1.33", 129257, nil, "", "kubectl stops dropping labels: a fix"},
	{"1.33", 129278, nil, "", "kubeadm removes a flag from a file if a gate is on: what a tool does"},
	{"1.33", 129279, nil, "", "kubeadm removes an annotation from nodes if a gate is on: what a tool does"},
	{"1.33", 129295, []string{"removed gate PersistentVolumeLastPhaseTransitionTime"}, rem, "GA gate removed"},
	{"1.33", 129296, []string{"removed gate CPUManager"}, rem, "GA gate removed"},
	{"1.33", 129297, []string{"graduated gate CSIMigrationPortworx to stable"}, "", "promoted to GA; \"all operations ... are redirected\" is no removal"},
	{"1.33", 129317, nil, "", "a preflight check removed"},
	{"1.33", 129375, []string{"removed gate AppArmor"}, rem, "GA gate removed"},
	{"1.33", 129450, nil, "", "preflight checks removed and added"},
	{"1.33", 129497, []string{"removed gate AppArmorFields"}, rem, "GA gate removed"},
	{"1.33", 129498, []string{"removed gate JobPodFailurePolicy"}, rem, "removed; \"which graduated to GA in 1.31\" is no graduation now"},
	{"1.33", 129500, []string{"removed gate PDBUnhealthyPodEvictionPolicy"}, rem, "GA gate removed"},
	{"1.33", 129583, []string{"graduated gate HonorPVReclaimPolicy to stable"}, "", "promoted to GA"},
	{"1.33", 129589, []string{"removed gate EtcdLearnerMode of kubeadm"}, rem, "kind feature; kubeadm removed a gate \"which graduated to GA in 1.32\""},
	{"1.33", 129591, []string{"graduated gate ServiceAccountTokenNodeBinding of kube-apiserver to stable"}, "", "\"Promoted the X feature gate general availability\" (no \"to\")"},
	{"1.33", 129620, []string{"graduated gate WaitForAllControlPlaneComponents of kubeadm to beta"}, "", "kubeadm gate to beta"},
	{"1.33", 129656, []string{"graduated gate KubeletFineGrainedAuthz to beta", "default gate KubeletFineGrainedAuthz = true"}, "", "to beta; \"the gate is now enabled by default\""},
	{"1.33", 129692, []string{"removed gate KubeProxyDrainingTerminatingNodes"}, rem, "GA gate removed"},
	{"1.33", 129713, []string{"default gate DisableNodeKubeProxyVersion = true"}, "", "\"Graduated the X feature gate to enable by default\""},
	{"1.33", 129731, []string{"graduated feature SidecarContainers to stable"}, "", "GA; the gate \"will be removed in v1.36\" is a future"},
	{"1.33", 129770, []string{"graduated gate AnyVolumeDataSource to stable"}, "", "promoted to GA"},
	{"1.33", 129923, []string{"default component git-repo volume plugin = false"}, "", "disabled by default, may be re-enabled: kind feature, no deprecation said"},
	{"1.33", 129929, []string{"deprecated gate SeparateCacheWatchRPC", "default gate SeparateCacheWatchRPC = false"}, dep, "deprecated and disabled by default"},
	{"1.33", 129930, []string{"deprecated feature WatchFromStorageWithoutResourceVersion"}, dep, "\"The X feature was deprecated\""},
	{"1.33", 129933, []string{"default gate StorageNamespaceIndex = false", "deprecated gate StorageNamespaceIndex"}, dep, "kind cleanup; \"Flipped X to false and deprecated it\""},
	{"1.33", 129934, []string{"graduated gate BtreeWatchCache to stable"}, "", "GA"},
	{"1.33", 129956, []string{"graduated gate ControlPlaneKubeletLocalMode of kubeadm to beta"}, "", "kubeadm gate to beta"},
	{"1.33", 129970, []string{"deprecated api resource.k8s.io/v1beta1 -> resource.k8s.io/v1beta2"}, dep, "deprecated and will be removed in 1.36: the replacement v1beta2 is not deprecated"},
	{"1.33", 130013, []string{"graduated gate CRDValidationRatcheting to stable"}, "", "GA"},
	{"1.33", 130017, []string{"default gate ServiceAccountNodeAudienceRestriction of kube-apiserver = true"}, "", "a kube-apiserver featuregate enabled by default"},
	{"1.33", 130058, []string{"added gate LegacySidecarContainers"}, "", "introduced; its removal in v1.34 is a future"},
	{"1.33", 130061, []string{"graduated gate JobBackoffLimitPerIndex to stable"}, "", "\"the Job's X feature-gate to stable\""},
	{"1.33", 130098, []string{"deprecated api v1 [Endpoints]"}, dep, "the v1 Endpoints API is now officially deprecated"},
	{"1.33", 130116, nil, "", "a graduation named in words only"},
	{"1.33", 130128, []string{"graduated feature RelaxedDNSSearchValidation to beta"}, "", "promoted to beta"},
	{"1.33", 130135, []string{"added metric kubelet_image_volume_requested_total of kubelet", "added metric kubelet_image_volume_mounted_succeed_total of kubelet", "added metric kubelet_image_volume_mounted_errors_total of kubelet"}, "", "a list item adds three kubelet metrics"},
	{"1.33", 130138, []string{"default gate UserNamespacesSupport = true"}, "", "\"Enabled user namespaces support (feature gate X) by default\""},
	{"1.33", 130162, []string{"removed flag --cloud-provider of kube-apiserver", "removed flag --cloud-config of kube-apiserver", "removed gate DisableCloudProviders", "removed gate DisableKubeletCloudCredentialProviders"}, rem, "two numbered items"},
	{"1.33", 130210, nil, "", "a graduation named in words only"},
	{"1.33", 130238, []string{"graduated flag --subresource of kubectl to stable"}, "", "a kubectl flag to stable"},
	{"1.33", 130243, nil, "", "a warning removed"},
	{"1.33", 130250, nil, rem, "alpha support for Windows HostNetwork containers removed: a removal of nothing named"},
	{"1.33", 130347, []string{"default api apidiscovery.k8s.io/v2beta1 = false"}, "", "an API group disabled by default"},
	{"1.33", 130463, []string{"graduated feature MatchLabelKeys to stable"}, "", "GA"},
	{"1.33", 130507, []string{"default gate OrderedNamespaceDeletion = true"}, "", "enabled by default"},
	{"1.33", 130536, []string{"graduated feature JobSuccessPolicy to stable"}, "", "promoted to stable"},
	{"1.33", 130541, nil, "", "a CPU manager policy option to beta: an option value, none of our things"},
	{"1.33", 130544, []string{"graduated feature SELinuxChangePolicy to beta", "graduated feature SELinuxMount to beta"}, "", "two features to beta"},
	{"1.33", 130550, []string{"default gate SchedulerAsyncPreemption = true"}, "", "\"the feature flag (X) is enabled by default\""},
	{"1.33", 130560, []string{"graduated feature RemoteRequestHeaderUID to beta", "default feature RemoteRequestHeaderUID = true"}, "", "moves to beta and is now enabled by default"},
	{"1.33", 130621, []string{"default feature PodLifecycleSleepAction = true"}, "", "\"is now turned on by default\""},
	{"1.33", 130655, nil, "", "test names"},
	{"1.33", 130658, nil, "", "an e2e test promoted to conformance: no stage"},
	{"1.33", 130673, []string{"graduated field trafficDistribution to stable"}, "", "a field to GA, named without backticks"},
	{"1.33", 130728, []string{"default gate DeclarativeValidation = true"}, "", "enabled by default; the other \"remains disabled\""},
	{"1.33", 130733, []string{"deprecated field status.resize"}, dep, "a field deprecated"},
	{"1.33", 130742, []string{"graduated field hints to stable", "deprecated annotation service.kubernetes.io/topology-mode"}, dep, "a field to GA; an annotation \"now considered deprecated\""},
	{"1.33", 130772, []string{"added gate SchedulerPopFromBackoffQ"}, "", "a new gate"},
	{"1.33", 130798, []string{"default feature ProcMountType = true"}, "", "\"Bumped X feature to on by default beta\""},
	{"1.33", 130814, []string{"default feature DRAResourceClaimDeviceStatus = true"}, "", "\"is now turned on by default\""},
	{"1.33", 130876, []string{"graduated feature WinDSR of kube-proxy to beta", "default gate WinDSR = true"}, "", "to beta, the gate enabled by default"},
	{"1.33", 130880, []string{"deprecated gate InPlacePodVerticalScalingAllocatedStatus"}, dep, "a gate deprecated; a field now guarded by another gate"},
	{"1.33", 130905, []string{"default gate InPlacePodVerticalScaling = true"}, "", "the gate is now enabled by default"},
	{"1.33", 130920, []string{"graduated feature NodeInclusionPolicyInPodTopologySpread to stable"}, "", "promoted to stable"},
	{"1.33", 131359, []string{"default feature WatchList of kube-apiserver = false"}, "", "kube-apiserver disabled a beta feature by default"},

	// 1.35: every entry of the sample.
	{"1.35", 132157, []string{"removed gate UserNamespacesPodSecurityStandards"}, rem, "a gate removed"},
	{"1.35", 132927, nil, "", "a fix"},
	{"1.35", 133026, nil, rem, "deprecated gogo definitions removed from a Go package: a removal of nothing of our kinds"},
	{"1.35", 133087, []string{"default gate DeploymentReplicaSetTerminatingReplicas = true"}, "", "the gate is now enabled by default"},
	{"1.35", 133128, []string{"default gate HPAConfigurableTolerance = true"}, "", "the gate has now been enabled by default"},
	{"1.35", 133153, []string{"graduated feature MaxUnavailableStatefulSet to beta", "default feature MaxUnavailableStatefulSet = true"}, "", "\"to beta and enabling it by default\""},
	{"1.35", 133327, []string{"default command kubectl get -o kyaml = true"}, "", "an output enabled by default"},
	{"1.35", 133436, nil, "", "\"Deprecated metrics will be hidden\": an adjective, a policy"},
	{"1.35", 133571, nil, "", "formatting of deprecation comments"},
	{"1.35", 133615, nil, "", "a test promoted to conformance"},
	{"1.35", 133720, []string{"removed gate SizeMemoryBackedVolumes"}, rem, "GA gate removed"},
	{"1.35", 133731, nil, "", "a prefix removed from a description"},
	{"1.35", 133742, []string{"removed gate ComponentSLIs"}, rem, "removed \"as it was promoted to stable\" before"},
	{"1.35", 133778, []string{"deprecated flag --pod-infra-container-image"}, dep, "\"The flag has been deprecated\"; \"no longer served a purpose\" is no removal"},
	{"1.35", 133779, []string{"removed flag --pod-infra-container-image of kubelet"}, rem, "ACTION REQUIRED: removed from the kubelet command line"},
	{"1.35", 133883, nil, "", "a graduation in 1.34 told again"},
	{"1.35", 133907, nil, "", "a prefix removed from a description"},
	{"1.35", 134028, nil, "", "documentation of a deprecated version"},
	{"1.35", 134043, nil, "", "a container name removed from messages"},
	{"1.35", 134054, nil, "", "a warning removed"},
	{"1.35", 134106, []string{"graduated gate ControlPlaneKubeletLocalMode of kubeadm to stable", "deprecated command etcd of kubeadm -> etcd-join"}, dep, "a gate to GA; the subphase etcd deprecated for etcd-join"},
	{"1.35", 134130, []string{"removed env KUBECTL_OPENAPIV3_PATCH"}, rem, "an environment variable removed"},
	{"1.35", 134189, nil, "", "users must remove ResourceSlices before upgrading: no removal by the release"},
	{"1.35", 134230, []string{"deprecated gate AggregatedDiscoveryRemoveBetaType"}, dep, "deprecated and locked"},
	{"1.35", 134256, nil, "", "runtime use of a library removed; marker methods \"will be removed in v1.36\""},
	{"1.35", 134298, nil, upg, "\"will be set to true\": a future, action required"},
	{"1.35", 134414, []string{"graduated gate EnvFiles to beta", "default gate EnvFiles = true"}, "", "to beta and enabled by default"},
	{"1.35", 134457, nil, dep, "values of a field graduated and deprecated: values are none of our things"},
	{"1.35", 134481, []string{"graduated flag --chunk-size of kubectl to stable"}, "", "a flag to stable"},
	{"1.35", 134539, []string{"deprecated component ipvs mode of kube-proxy -> nftables"}, dep, "marked deprecated, removal in the future"},
	{"1.35", 134577, nil, "", "a permission change behind a gate enabled by default: the gate is told, not changed"},
	{"1.35", 134614, nil, "", "a policy option to GA: an option value"},
	{"1.35", 134624, []string{"default gate PodCertificateRequest = false", "added field UserAnnotations", "added field UnverifiedUserAnnotations"}, "", "a feature to beta, its gate off by default, two fields added"},
	{"1.35", 134625, []string{"removed api storage.k8s.io/v1alpha1 [VolumeAttributesClass]"}, rem, "a resource removed from an API version"},
	{"1.35", 134631, []string{"default gate ContainerRestartRules = true", "graduated feature ContainerRestartRules to beta"}, "", "enabled by default and promoted"},
	{"1.35", 134647, []string{"default gate MutableCSINodeAllocatableCount = true"}, "", "enabled by default"},
	{"1.35", 134656, nil, "", "a build dependency removed"},
	{"1.35", 134685, []string{"removed api policy/v1beta1 [PodDisruptionBudget] of kubectl"}, rem, "kubectl dropped its support, the API server did not"},
	{"1.35", 134691, nil, "", "locked, \"will be removed in future release\""},
	{"1.35", 134729, []string{"graduated gate HostnameOverride to beta", "default gate HostnameOverride = true"}, "", "to beta and enabled it by default"},
	{"1.35", 134736, []string{"graduated feature ImageGCMaximumAge to stable"}, "", "to stable"},
	{"1.35", 134769, nil, "", "a fix quoting \"cannot be removed\""},
	{"1.35", 134777, nil, "", "headers to stable, named in words"},
	{"1.35", 134781, []string{"removed gate WaitForAllControlPlaneComponents of kubeadm"}, rem, "removed; \"which graduated to GA in v1.34\" is before"},
	{"1.35", 134782, []string{"removed api certificates.k8s.io/v1beta1 [CertificateSigningRequest] of kubectl"}, rem, "kubectl dropped its support"},
	{"1.35", 134784, []string{"added api v1beta1 [StorageVersionMigration]", "removed api v1alpha1 [StorageVersionMigration]"}, rem, "a version added and one removed, action required"},
	{"1.35", 134790, []string{"added field UserAnnotations", "added field UnverifiedUserAnnotations"}, "", "fields added to APIs"},
	{"1.35", 134893, []string{"added gate UserNamespacesHostNetworkSupport"}, "", "a new gate"},
	{"1.35", 134913, []string{"removed api discovery.k8s.io/v1beta1 [EndpointSlice] of kubectl"}, rem, "kubectl dropped its support"},
	{"1.35", 134948, []string{"graduated feature PodObservedGenerationTracking to stable"}, "", "to GA"},
	{"1.35", 134949, []string{"graduated feature InPlacePodVerticalScaling to stable"}, "", "to GA"},
	{"1.35", 134956, nil, "", "a bug: an owner reference's setting removed from objects the system creates"},
	{"1.35", 134964, nil, "", "fields dropped when a gate is off: a behaviour, not a removal"},
	{"1.35", 134994, []string{"removed gate StrictCostEnforcementForVAP", "removed gate StrictCostEnforcementForWebhooks"}, rem, "two gates removed, \"which were locked since v1.32\""},
	{"1.35", 135017, nil, "", "a fix guarded by a gate enabled by default"},
	{"1.35", 135044, []string{"graduated gate KubeletCrashLoopBackOffMax to beta", "default gate KubeletCrashLoopBackOffMax = true"}, "", "to beta and enabled it by default"},
	{"1.35", 135059, []string{"default gate SchedulerAsyncAPICalls = true"}, "", "\"was re-enabled by default\""},
	{"1.35", 135080, []string{"graduated feature JobManagedBy to stable"}, "", "GA; the gate \"will be removed\" later"},
	{"1.35", 135088, nil, "", "a graduation named in words"},
	{"1.35", 135103, []string{"default feature NominatedNodeNameForExpectation of kube-scheduler = true", "default feature ClearingNominatedNodeNameAfterBinding of kube-apiserver = true"}, "", "two list items"},
	{"1.35", 135104, []string{"added gate MutableSchedulingDirectivesForSuspendedJobs"}, "", "a new alpha gate (disabled by default)"},
	{"1.35", 135108, []string{"removed api networking.k8s.io/v1beta1 [IngressClass] of kubectl"}, rem, "kubectl dropped its support"},
	{"1.35", 135158, []string{"graduated gate PodTopologyLabelsAdmission to beta", "default gate PodTopologyLabelsAdmission = true"}, "", "to beta and enabled it by default"},
	{"1.35", 135176, []string{"removed api networking.k8s.io/v1beta1 [Ingress] of kubectl"}, rem, "kubectl dropped its support"},
	{"1.35", 135195, nil, "", "a graduation named in words"},
	{"1.35", 135228, []string{"graduated feature KubeletEnsureSecretPulledImages to beta", "default feature KubeletEnsureSecretPulledImages = true"}, "", "promoted to beta and enabled by default"},
	{"1.35", 135499, nil, "", "a fix; \"enabled by default since 1.33\" is a past"},

	// Other releases: what the sample lacks.
	{"1.34", 131961, []string{"removed flag iptables CLI wait interval of kube-proxy"}, rem, "kind bug; a flag named in words removed"},
	{"1.34", 132352, []string{"removed flag --wait-interval"}, rem, "kind bug; \"Removed the deprecated flag\" of a binary"},
	{"1.34", 129373, []string{"added flag --cpu of kubectl autoscale", "added flag --memory of kubectl autoscale", "deprecated flag --cpu-precent of kubectl autoscale"}, dep, "kind feature; \"started deprecating\" after a comma"},
	{"1.36", 134981, []string{"removed metric container_cpu_load_average_10s", "removed metric container_cpu_load_d_average_10s", "removed metric cpu_tasks_state"}, rem, "kind bug; three metrics removed"},
	{"1.32", 127017, []string{"removed api flowcontrol.apiserver.k8s.io/v1beta3 [FlowSchema,PriorityLevelConfiguration] -> flowcontrol.apiserver.k8s.io/v1"}, rem, "no longer served"},
	{"1.29", 119495, []string{"removed api flowcontrol.apiserver.k8s.io/v1beta2 [FlowSchema,PriorityLevelConfiguration] -> flowcontrol.apiserver.k8s.io/v1beta3"}, rem, "no longer served"},
	{"1.29", 121089, []string{"added api flowcontrol.apiserver.k8s.io/v1 [FlowSchema,PriorityLevelConfiguration]", "deprecated api flowcontrol.apiserver.k8s.io/v1beta3 -> flowcontrol.apiserver.k8s.io/v1"}, dep, "promoted to v1; v1beta3 deprecated"},
	{"1.27", 114947, []string{"removed annotation seccomp.security.alpha.kubernetes.io/pod", "removed annotation container.seccomp.security.alpha.kubernetes.io"}, rem, "\"were deprecated since v1.19, now have been completely removed\": the removal, not the old deprecation"},
	{"1.27", 116522, []string{"added annotation service.kubernetes.io/topology-mode", "deprecated annotation service.kubernetes.io/topology-aware-hints"}, dep, "an annotation introduced as the other's replacement"},
	{"1.28", 119286, []string{"removed env KUBECTL_EXPLAIN_OPENAPIV3"}, rem, "an environment variable removed"},
	{"1.31", 122791, []string{"removed env ENABLE_CLIENT_GO_WATCH_LIST_ALPHA"}, rem, "an environment variable removed; the next sentence names another to set"},
	{"1.31", 124373, []string{"removed command kubeadm join control-plane-join update-status of kubeadm"}, rem, "a kubeadm phase removed"},
	{"1.28", 118013, []string{"added command kubeadm config validate of kubeadm"}, "", "a new kubeadm command"},
	{"1.25", 109798, []string{"removed component PodSecurityPolicy admission plugin"}, rem, "\"deprecated since 1.21, is removed\""},
	{"1.36", 135322, []string{"removed component Portworx volume plugin", "removed gate CSIMigrationPortworx", "removed gate InTreePluginPortworxUnregister"}, rem, "an in-tree plugin and two gates removed"},
	{"1.26", 112133, []string{"removed component userspace proxy mode of kube-proxy"}, rem, "\"is no longer supported\""},
	{"1.30", 122612, []string{"removed component SecurityContextDeny admission plugin"}, rem, "removed; \"which has been deprecated since v1.27\" is an earlier deprecation"},
	{"1.25", 110410, []string{"graduated feature CSIMigration to stable"}, "", "\"is GA now\"; the gate \"will be removed in v1.27\""},
	{"1.26", 112797, []string{"deprecated flag --master-service-namespace of kube-apiserver"}, dep, "deprecated, \"will be removed in v1.27\""},
	{"1.28", 116530, nil, "", "a flag un-deprecated"},
	{"1.26", 112000, nil, "", "the usage of a flag removed, not the flag"},
	{"1.27", 107826, nil, dep, "Go functions deprecated: none of our things"},
	{"1.32", 128296, nil, "", "restrictions on a flag removed"},
	{"1.31", 125540, nil, "", "a fix of a wrong deprecation warning"},
	{"1.32", 126720, nil, "", "a revert"},
	{"1.26", 112243, nil, "", "flags added back: a revert of a removal"},
	{"1.29", 121302, []string{"graduated feature JobReadyPods to stable"}, "", "\"The feature gate can no longer be disabled\" is no removal"},
	{"1.30", 122409, []string{"removed gate LegacyServiceAccountTokenTracking"}, rem, "removed; \"(GA since 1.28)\""},
	{"1.30", 123179, []string{"added metric apiserver_encryption_config_controller_automatic_reloads_total", "deprecated metric apiserver_encryption_config_controller_automatic_reload_success_total -> apiserver_encryption_config_controller_automatic_reloads_total", "deprecated metric apiserver_encryption_config_controller_automatic_reload_failure_total -> apiserver_encryption_config_controller_automatic_reloads_total"}, dep, "a metric added, two deprecated in its favour"},
	{"1.27", 115209, []string{"removed metric node_collector_evictions_number -> node_collector_evictions_total", "removed metric scheduler_e2e_scheduling_duration_seconds -> scheduler_scheduling_attempt_duration_seconds"}, rem, "a list after \"the following deprecated metrics:\""},
	{"1.25", 108624, []string{"removed flag --service-account-api-audiences of kube-apiserver -> --api-audiences"}, rem, "\"API server's deprecated X flag was removed. Use Y instead\""},
	{"1.28", 119130, []string{"removed flag --lock-object-namespace of kube-scheduler -> --leader-elect-resource-namespace", "removed flag --lock-object-name of kube-scheduler -> --leader-elect-resource-name"}, rem, "two flags, two replacements in order"},
	{"1.31", 125842, []string{"removed flag --filename of kubectl", "removed flag --force of kubectl", "removed flag --grace-period of kubectl", "removed flag --kustomize of kubectl", "removed flag --recursive of kubectl", "removed flag --timeout of kubectl", "removed flag --wait of kubectl", "removed flag --delete-local-data of kubectl -> --delete-emptydir-data"}, rem, "a list of bare flag names, then one more"},
	{"1.26", 113116, []string{"added flag --prune-allowlist", "deprecated flag --prune-whitelist"}, dep, "\"the X flag, which has been deprecated\": now"},
	{"1.27", 113534, []string{"removed gate ControllerManagerLeaderMigration"}, rem, "\"the feature gate option has been removed\": the gate named before"},
}

// effectString writes an effect on one line for the table and the log:
// "removed flag --x of kubelet -> --y".
func effectString(e knowledge.Effect) string {
	s := string(e.Action) + " " + string(e.What) + " " + e.Name
	if len(e.Kinds) > 0 {
		s += " [" + strings.Join(e.Kinds, ",") + "]"
	}
	if e.Of != "" {
		s += " of " + e.Of
	}
	if e.Stage != knowledge.StageNone {
		s += " to " + e.Stage.String()
	}
	if e.Value != "" {
		s += " = " + e.Value
	}
	if e.Replacement != "" {
		s += " -> " + e.Replacement
	}
	return s
}

// matches reports whether a read effect is the wanted one: the same
// action, sort and name (a component's name holding the wanted words).
func matches(want, got knowledge.Effect) bool {
	if want.Action != got.Action || want.What != got.What {
		return false
	}
	if want.What == knowledge.EffectComponent {
		return strings.Contains(strings.ToLower(got.Name), strings.ToLower(want.Name))
	}
	return strings.EqualFold(want.Name, got.Name)
}

// detailsAgree reports whether got says what want says of owner,
// stage, default and replacement, where want says it.
func detailsAgree(want, got knowledge.Effect) bool {
	return (want.Of == "" || want.Of == got.Of) && (want.Stage == knowledge.StageNone || want.Stage == got.Stage) &&
		(want.Value == "" || want.Value == got.Value) && (want.Replacement == "" || want.Replacement == got.Replacement) &&
		(len(want.Kinds) == 0 || strings.Join(want.Kinds, ",") == strings.Join(got.Kinds, ","))
}

// parseEffect reads an effect written as effectString writes it.
func parseEffect(t *testing.T, s string) knowledge.Effect {
	t.Helper()
	act, rest, _ := strings.Cut(s, " ")
	what, rest, _ := strings.Cut(rest, " ")
	e := knowledge.Effect{Action: knowledge.EffectAction(act), What: knowledge.EffectWhat(what)}
	cut := func(sep string) string {
		var v string
		if i := strings.Index(rest, sep); i >= 0 {
			rest, v = rest[:i], rest[i+len(sep):]
		}
		return v
	}
	e.Replacement = cut(" -> ")
	e.Value = cut(" = ")
	if st := cut(" to "); st != "" {
		var err error
		if e.Stage, err = knowledge.ParseStage(st); err != nil {
			t.Fatal(err)
		}
	}
	e.Of = cut(" of ")
	if k := cut(" ["); k != "" {
		e.Kinds = strings.Split(strings.TrimSuffix(k, "]"), ",")
	}
	e.Name = rest
	return e
}

// TestEffectsHandChecked measures the effect rules and the notices they
// make against effectCases: precision and recall of the effects (by
// action, sort and name), how often a matched effect's owner, stage,
// default and replacement agree, and precision and recall of removals and
// deprecations. Run with -v for the figures and every miss.
func TestEffectsHandChecked(t *testing.T) {
	sharedtest.Root(t)
	if n := len(effectCases); n < 150 {
		t.Fatalf("%d hand-checked entries; want at least 150", n)
	}
	seen := map[string]bool{}
	var wantN, gotN, matched, detailed int
	type pr struct{ tp, fp, fn int }
	notices := map[knowledge.NoticeKind]*pr{rem: {}, dep: {}}
	whats, actions := map[knowledge.EffectWhat]bool{}, map[knowledge.EffectAction]bool{}
	for _, c := range effectCases {
		id := fmt.Sprintf("%s#%d", c.release, c.pr)
		if seen[id] {
			t.Errorf("%s is in the table twice", id)
		}
		seen[id] = true
		ch := change(t, knowledge.MustVersion(c.release), c.pr)
		var want []knowledge.Effect
		for _, s := range c.want {
			e := parseEffect(t, s)
			want = append(want, e)
			whats[e.What], actions[e.Action] = true, true
		}
		got := ch.Effects
		wantN += len(want)
		gotN += len(got)
		used := make([]bool, len(got))
		for _, w := range want {
			found := false
			for j, g := range got {
				if !used[j] && matches(w, g) {
					used[j], found = true, true
					matched++
					if detailsAgree(w, g) {
						detailed++
					} else {
						t.Logf("%s: %q read as %q", id, effectString(w), effectString(g))
					}
					break
				}
			}
			if !found {
				t.Logf("%s: missed %q (%s)", id, effectString(w), c.why)
			}
		}
		for j, g := range got {
			if !used[j] {
				t.Logf("%s: read %q, which the entry does not state (%s)", id, effectString(g), c.why)
			}
		}
		for k, p := range notices {
			switch {
			case ch.Notice == k && c.notice == k:
				p.tp++
			case ch.Notice == k:
				p.fp++
				t.Logf("%s: notice %q, want %q (%s)", id, ch.Notice, c.notice, c.why)
			case c.notice == k:
				p.fn++
				t.Logf("%s: notice %q, want %q (%s)", id, ch.Notice, c.notice, c.why)
			}
		}
	}
	for _, w := range []knowledge.EffectWhat{knowledge.EffectAPI, knowledge.EffectGate, knowledge.EffectFeature, knowledge.EffectFlag, knowledge.EffectMetric,
		knowledge.EffectField, knowledge.EffectAnnotation, knowledge.EffectCommand, knowledge.EffectComponent, knowledge.EffectEnv} {
		if !whats[w] {
			t.Errorf("no hand-checked effect is of %q", w)
		}
	}
	for _, a := range []knowledge.EffectAction{knowledge.EffectAdded, knowledge.EffectDeprecated, knowledge.EffectRemoved, knowledge.EffectGraduated, knowledge.EffectDefault} {
		if !actions[a] {
			t.Errorf("no hand-checked effect is %q", a)
		}
	}
	ratio := func(a, b int) float64 {
		if b == 0 {
			return 1
		}
		return float64(a) / float64(b)
	}
	precision, recall := ratio(matched, gotN), ratio(matched, wantN)
	t.Logf("%d entries: effects precision %.2f (%d of %d read), recall %.2f (%d of %d stated); owner, stage, default and replacement agree on %d of %d matched",
		len(effectCases), precision, matched, gotN, recall, matched, wantN, detailed, matched)
	for _, k := range []knowledge.NoticeKind{rem, dep} {
		p := notices[k]
		t.Logf("%s notices: precision %.2f, recall %.2f (%d right, %d wrongly, %d missed)", k, ratio(p.tp, p.tp+p.fp), ratio(p.tp, p.tp+p.fn), p.tp, p.fp, p.fn)
	}
	const (
		minPrecision = 0.90
		minRecall    = 0.80
		minNotice    = 0.90
	)
	if precision < minPrecision || recall < minRecall {
		t.Errorf("effects precision %.2f, recall %.2f; want at least %.2f and %.2f", precision, recall, minPrecision, minRecall)
	}
	for _, k := range []knowledge.NoticeKind{rem, dep} {
		p := notices[k]
		if pr, rc := ratio(p.tp, p.tp+p.fp), ratio(p.tp, p.tp+p.fn); pr < minNotice || rc < minNotice {
			t.Errorf("%s notices: precision %.2f, recall %.2f; want at least %.2f", k, pr, rc, minNotice)
		}
	}
}
