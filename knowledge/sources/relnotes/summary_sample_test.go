package relnotes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// summaryCase is one release-note entry whose title (its summary, what
// every list and `pr N` show) was checked by hand against its words in
// release-notes-draft.json: right are the typed changes its words state
// and a title may be written from (as effectString writes them), wrong
// those the rules once read that it does not state, with why in a few
// words. Facts only: the words themselves are read from ../shared.
type summaryCase struct {
	release string
	pr      int
	right   []string
	wrong   []string
	why     string
}

// summaryCases (issue 30, point 2) are two samples of the entries whose
// title is written from typed changes rather than quoted, none of them
// among effectCases (on which the rules were written):
//
//   - sample 1: 20 entries drawn at random (Python's random.Random(20260830),
//     over each release's entries sorted by PR) from each of 1.25-1.32,
//     1.34 and 1.36, and every such entry of 1.33 (14) and 1.35 (13), 227
//     in all, drawn after the first certainty rules (effects_sure.go) and
//     read by hand: 15 titles were wrong (why says how); the rules that
//     followed quote those entries instead, or write only what is right;
//   - sample 2: 70 entries drawn at random (random.Random(30)) from the
//     300 such entries left after those rules, read by hand: one wrong
//     (125566), which the last rule quotes.
var summaryCases = []summaryCase{
	// sample 1
	{"1.25", 108476, []string{"removed flag --experimental-cluster-signing-duration of kube-controller-manager -> --cluster-signing-duration"}, nil, ""},
	{"1.25", 110310, []string{"removed metric apiserver_longrunning_gauge -> apiserver_longrunning_requests"}, nil, ""},
	{"1.25", 111402, []string{"deprecated gate EphemeralContainers"}, nil, ""},
	{"1.25", 109435, []string{"removed gate CSIServiceAccountToken", "removed gate ConfigurableFSGroupPolicy", "removed gate EndpointSlice", "removed gate EndpointSliceNodeName", "removed gate EndpointSliceProxying", "removed gate GenericEphemeralVolume", "removed gate IPv6DualStack", "removed gate IngressClassNamespacedParams", "removed gate StorageObjectInUseProtection", "removed gate TTLAfterFinished", "removed gate VolumeSubpath", "removed gate WindowsEndpointSliceProxying"}, nil, ""},
	{"1.25", 107329, []string{"graduated feature LocalStorageCapacityIsolationFSQuotaMonitoring to beta"}, nil, ""},
	{"1.25", 110411, []string{"graduated gate CSIMigrationPortworx to beta"}, nil, ""},
	{"1.25", 110459, []string{"graduated component PodSecurity admission plugin to stable", "default component PodSecurity admission plugin = true"}, nil, ""},
	{"1.25", 111194, []string{"graduated enhancement KEP-1591 to stable"}, []string{"graduated feature DaemonSet to stable", "graduated feature MaxSurge to stable"}, "one feature named in two words, read as two"},
	{"1.25", 111229, []string{"graduated field spec.podOS to stable"}, nil, ""},
	{"1.25", 111399, []string{"added flag --etcd-ready-timeout"}, nil, ""},
	{"1.25", 103523, []string{"default feature CSIMigrationvSphere = true"}, nil, ""},
	{"1.25", 111547, []string{"deprecated api v1beta2 of kube-scheduler"}, nil, ""},
	{"1.25", 110327, []string{"graduated gate UnversionedKubeletConfigMap of kubeadm to stable"}, nil, ""},
	{"1.25", 110419, []string{"graduated feature ServiceIPStaticSubrange to beta"}, nil, ""},
	{"1.25", 110388, []string{"graduated field minDomains to beta"}, nil, ""},
	{"1.25", 110534, []string{"removed component SelectorSpread plugin"}, nil, ""},
	{"1.25", 110337, []string{"removed metric apiserver_dropped_requests", "removed metric etcd_object_counts -> apiserver_storage_objects", "removed metric apiserver_registered_watchers -> apiserver_longrunning_requests"}, nil, ""},
	{"1.25", 109995, nil, nil, ""},
	{"1.25", 110703, []string{"default feature ServiceIPStaticSubrange = true"}, nil, ""},
	{"1.25", 110868, []string{"graduated field endPort to stable"}, nil, ""},
	{"1.26", 113710, []string{"deprecated flag --pod-eviction-timeout"}, nil, ""},
	{"1.26", 113496, []string{"graduated feature ServiceInternalTrafficPolicy to stable"}, nil, ""},
	{"1.26", 112386, []string{"removed gate CSRDuration"}, nil, ""},
	{"1.26", 113351, []string{"graduated gate EndpointSliceTerminatingCondition to stable"}, nil, ""},
	{"1.26", 112652, []string{"added metric kubernetes_feature_enabled"}, nil, ""},
	{"1.26", 112309, []string{"added field DisableCompression"}, nil, ""},
	{"1.26", 112341, []string{"removed component gcp auth plugin of client-go", "removed component azure auth plugin of client-go"}, nil, ""},
	{"1.26", 113510, []string{"graduated feature JobTrackingWithFinalizers to stable", "deprecated annotation batch.kubernetes.io/job-tracking"}, nil, ""},
	{"1.26", 112643, []string{"removed gate DynamicKubeletConfig of kube-apiserver"}, nil, ""},
	{"1.26", 112579, []string{"removed gate PodOverhead"}, nil, ""},
	{"1.26", 112679, []string{"deprecated metric apiserver_request_slo_duration_seconds -> apiserver_request_sli_duration_seconds"}, nil, ""},
	{"1.26", 112257, []string{"deprecated api v1beta3 of kube-scheduler"}, nil, ""},
	{"1.26", 112577, []string{"removed gate ServiceLoadBalancerClass", "removed gate ServiceLBNodePortControl"}, nil, ""},
	{"1.26", 113448, []string{"removed gate UnversionedKubeletConfigMap of kubeadm"}, nil, ""},
	{"1.26", 112961, nil, nil, ""},
	{"1.26", 113529, []string{"added flag --encryption-provider-config-automatic-reload of kube-apiserver"}, nil, ""},
	{"1.26", 111023, []string{"added api resource.k8s.io/v1alpha1 [ResourceClaim]"}, nil, ""},
	{"1.26", 112824, []string{"graduated feature ExpandedDNSConfig to beta", "default feature ExpandedDNSConfig = true"}, nil, ""},
	{"1.26", 108250, []string{"added flag --iptables-localhost-nodeports of kube-proxy"}, nil, ""},
	{"1.26", 113363, []string{"graduated feature ProxyTerminatingEndpoints to beta", "default feature ProxyTerminatingEndpoints = true"}, nil, ""},
	{"1.27", 114494, []string{"graduated gate ReadWriteOncePod to beta"}, nil, ""},
	{"1.27", 115082, []string{"added metric plugin_evaluation_total"}, nil, ""},
	{"1.27", 115721, []string{"graduated feature DownwardAPIHugePages of kubelet to stable"}, nil, ""},
	{"1.27", 114446, []string{"removed flag --master-service-namespace of kube-apiserver"}, nil, ""},
	{"1.27", 116329, []string{"removed component AWS kubelet credential provider of kubelet -> ecr-credential-provider"}, nil, ""},
	{"1.27", 115268, []string{"added gate NewVolumeManagerReconstruction"}, nil, ""},
	{"1.27", 115967, []string{"graduated enhancement KEP-3386 to beta"}, nil, ""},
	{"1.27", 114418, []string{"added gate ServiceNodePortStaticSubrange"}, nil, ""},
	{"1.27", 115846, []string{"added metric apiserver_envelope_encryption_invalid_key_id_from_status_total"}, nil, ""},
	{"1.27", 115750, []string{"graduated feature KubeletTracing to beta"}, nil, ""},
	{"1.27", 115719, []string{"graduated enhancement KEP-2413 to stable"}, nil, ""},
	{"1.27", 113218, []string{"added api certificates.k8s.io/v1alpha1 [ClusterTrustBundle]"}, nil, ""},
	{"1.27", 115480, []string{"added flag --output plaintext-openapiv2 of kubectl"}, nil, ""},
	{"1.27", 108396, []string{"added metric rest_client_request_retries_total"}, nil, ""},
	{"1.27", 115969, []string{"added field messageExpression"}, nil, ""},
	{"1.27", 115879, []string{"deprecated component SecurityContextDeny admission plugin"}, nil, ""},
	{"1.27", 116144, []string{"default gate APIServerTracing = true"}, nil, ""},
	{"1.27", 115363, []string{"graduated field spec.unhealthyPodEvictionPolicy to beta", "default field spec.unhealthyPodEvictionPolicy = true"}, nil, ""},
	{"1.27", 96120, []string{"added gate NodeLogQuery"}, nil, ""},
	{"1.27", 115904, []string{"graduated feature CronJobTimeZone to stable"}, nil, ""},
	{"1.28", 110477, nil, []string{"added field hostNetwork"}, "support for a field selector, not a new field"},
	{"1.28", 119328, []string{"added gate SchedulerQueueingHints"}, nil, ""},
	{"1.28", 117550, []string{"added flag --concurrent-cron-job-syncs of kube-controller-manager"}, nil, ""},
	{"1.28", 117655, []string{"removed gate DelegateFSGroupToCSIDriver"}, nil, ""},
	{"1.28", 117660, []string{"added gate UpgradeAddonsBeforeControlPlane of kubeadm"}, nil, ""},
	{"1.28", 119311, []string{"added metric apiserver_admission_match_condition_evaluation_seconds", "added metric apiserver_admission_match_condition_exclusions_total"}, nil, ""},
	{"1.28", 117211, []string{"added metric authorization_attempts_total of kube-apiserver", "added metric authorization_duration_seconds of kube-apiserver"}, nil, ""},
	{"1.28", 118866, []string{"added flag --allow-experimental-api of kubeadm config migrate/validate"}, nil, ""},
	{"1.28", 118810, []string{"added flag --concurrency"}, nil, ""},
	{"1.28", 118018, []string{"removed gate CSIStorageCapacity"}, nil, ""},
	{"1.28", 116723, []string{"deprecated gate ExperimentalHostUserNamespaceDefaulting"}, nil, ""},
	{"1.28", 118816, []string{"graduated feature TopologyManagerPolicyOptions to beta", "default feature TopologyManagerPolicyOptions = true"}, nil, ""},
	{"1.28", 117570, []string{"removed gate WindowsHostProcessContainers"}, nil, ""},
	{"1.28", 114307, []string{"graduated gate ProbeTerminationGracePeriod to stable"}, nil, ""},
	{"1.28", 117649, []string{"removed api kubescheduler.config.k8s.io/v1beta2 of kube-scheduler"}, nil, ""},
	{"1.28", 118959, []string{"deprecated metric apiserver_flowcontrol_request_concurrency_limit"}, nil, ""},
	{"1.28", 118386, []string{"added field ServedVersions"}, nil, ""},
	{"1.28", 117138, []string{"added flag --concurrent-job-syncs of kube-controller-manager"}, nil, ""},
	{"1.28", 117727, []string{"removed metric scheduler_scheduler_goroutines -> scheduler_goroutines"}, nil, ""},
	{"1.28", 119409, []string{"graduated gate ValidtaingAdmissionPolicy to beta", "default gate ValidtaingAdmissionPolicy = false"}, nil, ""},
	{"1.29", 121257, []string{"removed gate ProbeTerminationGracePeriod"}, nil, ""},
	{"1.29", 119878, []string{"added metric apiserver_envelope_encryption_dek_cache_filled"}, nil, ""},
	{"1.29", 121292, []string{"added metric job_finished_indexes_total"}, []string{"added feature BackoffLimitPerIndex"}, "a metric for a feature, not the feature"},
	{"1.29", 121255, []string{"removed gate OpenAPIV3"}, nil, ""},
	{"1.29", 117502, nil, []string{"added command kubectl node drain"}, "callbacks of a drain helper, not a command"},
	{"1.29", 121373, []string{"graduated gate CustomResourceValidationExpressions to stable"}, nil, ""},
	{"1.29", 121291, []string{"removed gate CSIMigrationvSphere"}, nil, ""},
	{"1.29", 119937, []string{"added field ipMode"}, nil, ""},
	{"1.29", 120864, []string{"added flag --init-only of kube-proxy"}, nil, ""},
	{"1.29", 118760, []string{"added gate UserNamespacesPodSecurityStandards"}, nil, ""},
	{"1.29", 120275, []string{"graduated feature CloudDualStackNodeIPs to beta"}, nil, ""},
	{"1.29", 121485, []string{"graduated gate KMSv2 to stable", "graduated gate KMSv2KDF to stable", "default gate KMSv1 = false"}, nil, ""},
	{"1.29", 120861, []string{"removed gate RetroactiveDefaultStorageClass"}, nil, ""},
	{"1.29", 119142, []string{"added flag --authentication-config of kube-apiserver"}, nil, ""},
	{"1.29", 121303, []string{"graduated feature CSINodeExpandSecret to stable", "default feature CSINodeExpandSecret = true"}, nil, ""},
	{"1.29", 120627, []string{"graduated feature PersistentVolumeLastPhaseTransitionTime to beta", "default feature PersistentVolumeLastPhaseTransitionTime = true"}, nil, ""},
	{"1.29", 120228, []string{"graduated gate EtcdLearnerMode of kubeadm to beta", "default component Learner mode = true"}, nil, ""},
	{"1.29", 121456, []string{"added gate RuntimeClassInImageCriApi"}, nil, ""},
	{"1.29", 121579, []string{"graduated feature SidecarContainers to beta", "default feature SidecarContainers = true"}, nil, ""},
	{"1.29", 119659, []string{"graduated enhancement KEP-3085 to beta"}, nil, ""},
	{"1.30", 122468, []string{"removed gate RemoveSelfLink"}, nil, ""},
	{"1.30", 120344, []string{"added flag --disable-force-detach of kube-controller-manager"}, nil, ""},
	{"1.30", 122138, []string{"removed gate KubeletPodResourcesGetAllocatable"}, nil, ""},
	{"1.30", 123425, []string{"added gate MutatingAdmissionPolicy"}, nil, ""},
	{"1.30", 122456, []string{"added metric lifecycle_handler_sleep_terminated_total"}, nil, ""},
	{"1.30", 120346, []string{"added flag --custom of kubectl debug"}, nil, ""},
	{"1.30", 122914, []string{"graduated feature KubeProxyDrainingTerminatingNodes to beta"}, nil, ""},
	{"1.30", 120246, []string{"removed flag --prune-whitelist of kubectl"}, nil, ""},
	{"1.30", 122134, []string{"removed gate ProxyTerminatingEndpoints"}, nil, ""},
	{"1.30", 122069, []string{"added metric leader_election_slowpath_total"}, nil, ""},
	{"1.30", 123560, []string{"graduated feature AdmissionWebhookMatchConditions to stable"}, nil, ""},
	{"1.30", 122961, []string{"graduated gate StableLoadBalancerNodeSet to stable"}, nil, ""},
	{"1.30", 123482, []string{"graduated enhancement KEP-1610 to stable"}, nil, ""},
	{"1.30", 121719, []string{"added metric image_pull_duration_seconds of kubelet"}, nil, ""},
	{"1.30", 122088, []string{"removed gate ExperimentalHostUserNamespaceDefaultingGate"}, nil, ""},
	{"1.30", 123442, []string{"graduated feature NewVolumeManagerReconstruction to stable"}, nil, ""},
	{"1.30", 123424, []string{"graduated feature ImageMaximumGCAge to beta"}, nil, ""},
	{"1.30", 122136, []string{"removed gate MinimizeIPTablesRestore"}, nil, ""},
	{"1.30", 123205, []string{"graduated feature NodeLogQuery to beta"}, nil, ""},
	{"1.30", 122635, []string{"graduated gate LegacyServiceAccountTokenCleanUp to stable"}, nil, ""},
	{"1.31", 126293, []string{"removed flag --proxy-port-range of kube-proxy"}, nil, ""},
	{"1.31", 126165, nil, []string{"added metric container_engine_t"}, "an SELinux type, not a metric"},
	{"1.31", 124316, []string{"removed api v1alpha2 of kubelet"}, nil, ""},
	{"1.31", 125751, []string{"graduated feature ElasticIndexedJob to stable"}, nil, ""},
	{"1.31", 125374, []string{"graduated feature StatefulSetStartOrdinal to stable"}, nil, ""},
	{"1.31", 124147, []string{"added flag --kube-api-qps"}, nil, ""},
	{"1.31", 125168, []string{"removed gate JobReadyPods"}, nil, ""},
	{"1.31", 122363, []string{"removed flag --iptables-masquerade-bit of kubelet", "removed flag --iptables-drop-bit of kubelet"}, nil, ""},
	{"1.31", 124815, []string{"removed gate InTreePluginAWSUnregister", "removed gate InTreePluginAzureDiskUnregister", "removed gate InTreePluginAzureFileUnregister", "removed gate InTreePluginGCEUnregister", "removed gate InTreePluginOpenStackUnregister", "removed gate InTreePluginvSphereUnregister"}, nil, ""},
	{"1.31", 126136, []string{"removed gate CustomResourceValidationExpressions"}, nil, ""},
	{"1.31", 124715, []string{"removed gate UpgradeAddonsBeforeControlPlane of kubeadm"}, nil, ""},
	{"1.31", 123638, []string{"graduated enhancement KEP-3633 to beta"}, nil, ""},
	{"1.31", 123845, []string{"graduated gate DisableNodeKubeProxyVersion to beta"}, nil, ""},
	{"1.31", 122082, []string{"removed flag --keep-terminated-pod-volumes of kubelet"}, []string{"deprecated flag --keep-terminated-pod-volumes of kubelet"}, "deprecated years before the removal"},
	{"1.31", 125868, nil, []string{"added flag --for of kubectl"}, "a value of an existing flag"},
	{"1.31", 124519, []string{"removed component in-tree gcp cloud provider"}, nil, ""},
	{"1.31", 126034, []string{"added field UserNamespaces"}, nil, ""},
	{"1.31", 124383, []string{"graduated enhancement KEP-3866 to beta"}, []string{"graduated flag --proxy-mode of kube-proxy to beta"}, "a mode, a value of the flag, graduated"},
	{"1.31", 124675, []string{"added gate StrictCostEnforcementForVAP", "added gate StrictCostEnforcementForWebhooks"}, nil, ""},
	{"1.31", 125591, []string{"graduated gate WatchList to beta"}, nil, ""},
	{"1.32", 128046, []string{"graduated feature PodLifecycleSleepAction to stable"}, nil, ""},
	{"1.32", 128031, []string{"added gate NodeLocalCRISocket of kubeadm"}, nil, ""},
	{"1.32", 128124, []string{"graduated feature TopologyManagerPolicyOptions to stable"}, nil, ""},
	{"1.32", 128169, []string{"graduated feature ServiceAccountTokenJTI to stable", "graduated feature ServiceAccountTokenPodNodeInfo to stable", "graduated feature ServiceAccountTokenNodeBindingValidation to stable"}, nil, ""},
	{"1.32", 126862, []string{"removed gate HPAContainerMetrics"}, nil, ""},
	{"1.32", 127673, []string{"graduated feature CustomResourceFieldSelectors to stable", "default feature CustomResourceFieldSelectors = true"}, nil, ""},
	{"1.32", 128623, nil, []string{"removed feature InPlacePodVerticalScaling"}, "dropped on one platform only"},
	{"1.32", 127155, []string{"added metric container_aligned_compute_resources_count of kubelet"}, nil, ""},
	{"1.32", 127058, []string{"removed gate ServerSideApply", "removed gate ServerSideFieldValidation"}, nil, ""},
	{"1.32", 128342, []string{"graduated gate RecoverVolumeExpansionFailure to beta"}, nil, ""},
	{"1.32", 124003, []string{"removed component AzureDiskLimits plugin of kube-scheduler", "removed component CinderLimits plugin of kube-scheduler", "removed component EBSLimits plugin of kube-scheduler", "removed component GCEPDLimits plugin of kube-scheduler"}, nil, ""},
	{"1.32", 128396, []string{"deprecated annotation kubernetes.io/enforce-mountable-secrets"}, nil, ""},
	{"1.32", 128053, []string{"graduated gate WatchList to beta"}, nil, ""},
	{"1.32", 128444, []string{"added flag --concurrent-daemonset-syncs of kube-controller-manager"}, nil, ""},
	{"1.32", 126336, []string{"removed flag --runonce of kubelet"}, nil, ""},
	{"1.32", 128634, []string{"removed gate PodHostIPs"}, nil, ""},
	{"1.32", 128197, []string{"removed component cloud provider of kube-controller-manager"}, nil, ""},
	{"1.32", 126894, []string{"removed gate ZeroLimitedNominalConcurrencyShares"}, nil, ""},
	{"1.32", 128247, []string{"graduated enhancement KEP-1847 to stable"}, nil, ""},
	{"1.32", 128472, []string{"graduated feature SchedulerQueueingHints to beta", "default feature SchedulerQueueingHints = true"}, nil, ""},
	{"1.33", 130571, []string{"added annotation apiserver.latency.k8s.io/authentication", "added annotation apiserver.latency.k8s.io/authorization"}, nil, ""},
	{"1.33", 130007, []string{"added gate MutableCSINodeAllocatableCount"}, nil, ""},
	{"1.33", 130423, []string{"added gate ListFromCacheSnapshot"}, nil, ""},
	{"1.33", 130764, []string{"added gate DRAPartitionableDevices"}, nil, ""},
	{"1.33", 129653, []string{"graduated enhancement KEP-3866 to stable"}, nil, ""},
	{"1.33", 130023, []string{"added field EtcdUpgrade"}, nil, ""},
	{"1.33", 130291, []string{"added api coordination.k8s.io/v1beta1 [LeaseCandidate]"}, nil, ""},
	{"1.33", 129106, nil, []string{"added flag -l of kubectl", "added flag --selector of kubectl"}, "a documentation example for the flags"},
	{"1.33", 130751, []string{"added api coordination.k8s.io/v1beta1 [LeaseCandidate]", "graduated feature CoordinatedLeaderElection to beta"}, nil, ""},
	{"1.33", 128499, []string{"added api v1beta1 [ClusterTrustBundle]"}, nil, ""},
	{"1.33", 130035, []string{"added gate OrderedNamespaceDeletion"}, nil, ""},
	{"1.33", 130797, []string{"added field tolerance"}, nil, ""},
	{"1.33", 130354, []string{"added flag --emulation-forward-compatible", "added flag --runtime-config-emulation-forward-compatible"}, nil, ""},
	{"1.33", 129017, nil, []string{"added field revisionHistoryLimit"}, "a validation of an existing field"},
	{"1.34", 131741, []string{"deprecated field preferences"}, nil, ""},
	{"1.34", 131973, []string{"graduated feature QueueingHint of kube-scheduler to stable"}, nil, ""},
	{"1.34", 131992, []string{"deprecated field StreamingConnectionIdleTimeout of kubelet"}, nil, ""},
	{"1.34", 133085, []string{"default feature DRAAdminAccess = true"}, nil, ""},
	{"1.34", 132704, []string{"graduated gate WatchList to beta"}, nil, ""},
	{"1.34", 132127, []string{"default gate PreferSameTrafficDistribution = true"}, nil, ""},
	{"1.34", 131654, []string{"graduated enhancement KEP-4633 to stable"}, nil, ""},
	{"1.34", 133062, []string{"graduated enhancement KEP-4802 to beta"}, nil, ""},
	{"1.34", 132901, []string{"graduated feature ListFromCacheSnapshot to beta"}, nil, ""},
	{"1.34", 132821, []string{"added api admissionregistration.k8s.io/v1beta1 [MutatingAdmissionPolicy]"}, nil, ""},
	{"1.34", 132626, []string{"added field FileKeyRef", "added gate EnvFiles"}, nil, ""},
	{"1.34", 132912, []string{"graduated feature PodObservedGenerationTracking to beta"}, nil, ""},
	{"1.34", 132645, []string{"graduated feature ConsistentListFromCache to stable"}, nil, ""},
	{"1.34", 132173, []string{"graduated enhancement KEP-3939 to stable"}, nil, ""},
	{"1.34", 122384, []string{"removed flag --register-schedulable of kubelet"}, nil, ""},
	{"1.34", 132108, []string{"graduated feature WinDSR of kube-proxy to stable", "default gate WinDSR = true"}, nil, ""},
	{"1.34", 131514, []string{"graduated feature OrderedNamespaceDeletion to stable"}, nil, ""},
	{"1.34", 132700, []string{"deprecated api v1beta1 of kubelet"}, nil, ""},
	{"1.34", 132965, []string{"deprecated metric apiserver_storage_objects -> apiserver_resource_objects"}, nil, ""},
	{"1.34", 131300, []string{"graduated feature ExternalServiceAccountTokenSigner of kube-apiserver to beta"}, nil, ""},
	{"1.35", 134520, nil, []string{"added field ShareID of kubelet", "added feature DRAConsumableCapacity of kubelet"}, "support for a field of a feature, not the feature"},
	{"1.35", 134378, []string{"added flag --as-user-extra of kubectl"}, nil, ""},
	{"1.35", 134564, []string{"added api scheduling.k8s.io/v1alpha1 [Workload]"}, nil, ""},
	{"1.35", 134523, []string{"added metric scheduler_resourceclaim_creates_total"}, nil, ""},
	{"1.35", 134384, []string{"added flag -n"}, nil, ""},
	{"1.35", 134890, []string{"added field HTTPEndpoints of kubeadm"}, nil, ""},
	{"1.35", 134760, []string{"added field Step"}, nil, ""},
	{"1.35", 133980, []string{"added flag --min-compatibility-version of kube-apiserver"}, nil, ""},
	{"1.35", 130951, nil, []string{"added feature MaxUnavailable"}, "metrics for a feature, not the feature"},
	{"1.35", 135003, []string{"added command kubectl kuberc view", "added command kubectl kuberc set"}, nil, ""},
	{"1.35", 131220, []string{"added gate CloudControllerManagerWatchBasedRoutesReconciliation"}, nil, ""},
	{"1.35", 134746, []string{"added gate ChangeContainerStatusOnKubeletRestart"}, nil, ""},
	{"1.35", 134388, []string{"graduated enhancement KEP-4540 to stable"}, nil, ""},
	{"1.36", 137065, []string{"added metric apiserver_peer_proxy_errors_total of kube-apiserver", "added metric apiserver_peer_discovery_sync_errors_total of kube-apiserver"}, nil, ""},
	{"1.36", 136912, []string{"graduated feature SELinuxChangePolicy to stable", "graduated feature SELinuxMountReadWriteOncePod to stable"}, nil, ""},
	{"1.36", 136279, []string{"added gate ControllerManagerReleaseLeaderElectionLockOnCancel"}, nil, ""},
	{"1.36", 137386, []string{"graduated feature ComponentFlagz to beta"}, nil, ""},
	{"1.36", 137454, []string{"graduated feature ProcMountType to stable"}, nil, ""},
	{"1.36", 137190, nil, []string{"added field includes"}, "a CEL function, not a field"},
	{"1.36", 135744, []string{"added field appProtocol of kubectl describe service"}, nil, ""},
	{"1.36", 136042, []string{"graduated feature NodeDeclaredFeatures to beta"}, nil, ""},
	{"1.36", 137488, []string{"added component PodGroupPodsCount scheduler plugin of kube-scheduler"}, nil, ""},
	{"1.36", 137019, []string{"added flag --show-secret"}, nil, ""},
	{"1.36", 135777, []string{"default gate WatchCacheInitializationPostStartHook = true"}, nil, ""},
	{"1.36", 136389, []string{"graduated gate RelaxedServiceNameValidation to beta", "default gate RelaxedServiceNameValidation = true"}, nil, ""},
	{"1.36", 136640, []string{"added field tlsServerName"}, nil, ""},
	{"1.36", 136716, []string{"added flag --concurrent-node-status-updates"}, nil, ""},
	{"1.36", 136711, []string{"graduated feature ImageVolume to stable"}, nil, ""},
	{"1.36", 135393, nil, []string{"added component PreBind plugin"}, "parallel runs of plugins, not a plugin"},
	{"1.36", 137348, []string{"removed flag --bounding-dirs", "removed field BoundingDirs"}, nil, ""},
	{"1.36", 137609, []string{"graduated feature ConstrainedImpersonation to beta", "default feature ConstrainedImpersonation = true"}, nil, ""},
	{"1.36", 137684, []string{"graduated gate InPlacePodLevelResourcesVerticalScaling to beta", "default gate InPlacePodLevelResourcesVerticalScaling = true"}, nil, ""},
	{"1.36", 136952, []string{"added metric kubelet_metrics_provider"}, nil, ""},
	// sample 2
	{"1.25", 109602, []string{"removed field metadata.clusterName"}, nil, ""},
	{"1.25", 111319, []string{"added flag --show-managed-fields"}, nil, ""},
	{"1.25", 111435, []string{"graduated enhancement KEP-3140 to beta"}, nil, ""},
	{"1.25", 111485, []string{"deprecated component GlusterFS provisioner"}, nil, ""},
	{"1.25", 111524, []string{"graduated feature CustomResourceValidationExpressions to beta", "default gate CustomResourceValidationExpressions = true"}, nil, ""},
	{"1.25", 111618, []string{"removed component intree volume plugin flocker"}, nil, ""},
	{"1.26", 112567, []string{"removed gate DefaultPodTopologySpread of kube-scheduler", "removed gate NonPreemptingPriority of kube-scheduler", "removed gate PodAffinityNamespaceSelector of kube-scheduler", "removed gate PreferNominatedNode of kube-scheduler"}, nil, ""},
	{"1.26", 113176, []string{"added metric job_controller_terminated_pods_tracking_finalizer"}, nil, ""},
	{"1.26", 113329, []string{"graduated feature RetroactiveDefaultStorageClass to beta"}, nil, ""},
	{"1.27", 113104, []string{"added flag --concurrent-node-syncs"}, nil, ""},
	{"1.27", 114523, []string{"graduated gate LegacyServiceAccountTokenTracking to beta"}, nil, ""},
	{"1.27", 115649, []string{"added metric apiserver_envelope_encryption_kms_operations_latency_seconds"}, nil, ""},
	{"1.27", 116116, []string{"graduated gate JobMutableNodeSchedulingDirectives to stable"}, nil, ""},
	{"1.27", 116261, []string{"added field MatchConditions"}, nil, ""},
	{"1.27", 116556, []string{"added api resource.k8s.io/v1alpha2 [PodSchedulingContext]"}, nil, ""},
	{"1.28", 114530, []string{"added flag --interactive of kubectl"}, nil, ""},
	{"1.28", 116720, []string{"removed flag --short"}, nil, ""},
	{"1.28", 118137, []string{"added annotation batch.kubernetes.io/cronjob-scheduled-timestamp"}, nil, ""},
	{"1.28", 118596, []string{"deprecated flag --azure-container-registry-config of kubelet"}, nil, ""},
	{"1.28", 118990, []string{"added feature CRDValidationRatcheting"}, nil, ""},
	{"1.28", 119301, []string{"added field podReplacementPolicy"}, nil, ""},
	{"1.28", 119374, []string{"graduated feature IPTablesOwnershipCleanup to stable"}, nil, ""},
	{"1.29", 120490, []string{"added metric apiserver_watch_list_duration_seconds"}, nil, ""},
	{"1.29", 120663, []string{"graduated enhancement KEP-3638 to beta"}, nil, ""},
	{"1.29", 121252, []string{"removed gate TopologyManager"}, nil, ""},
	{"1.30", 121461, []string{"graduated gate CRDValidationRatcheting to beta"}, nil, ""},
	{"1.30", 122023, []string{"added flag --exec-interactive-mode of kubectl", "added flag --exec-provide-cluster-info of kubectl"}, nil, ""},
	{"1.30", 122086, []string{"removed gate ExpandedDNSConfig"}, nil, ""},
	{"1.30", 122137, []string{"removed gate IPTablesOwnershipCleanup"}, nil, ""},
	{"1.30", 122139, []string{"removed gate KubeletPodResources"}, nil, ""},
	{"1.30", 122750, []string{"added metric process_start_time_seconds"}, nil, ""},
	{"1.30", 123345, []string{"added field reason"}, nil, ""},
	{"1.30", 123405, []string{"graduated feature ValidatingAdmissionPolicy to stable"}, nil, ""},
	{"1.30", 123532, []string{"added gate SeparateCacheWatchRPC"}, nil, ""},
	{"1.30", 123719, []string{"graduated feature StructuredAuthenticationConfiguration to beta"}, nil, ""},
	{"1.31", 124329, []string{"removed gate ReadWriteOncePod"}, nil, ""},
	{"1.31", 124463, []string{"removed gate ConsistentHTTPGetHandlers"}, nil, ""},
	{"1.31", 124496, []string{"removed api output.kubeadm.k8s.io/v1alpha2 of kubeadm -> v1alpha3"}, nil, ""},
	{"1.31", 124505, []string{"removed component PersistentVolumeLabel admission plugin"}, nil, ""},
	{"1.31", 124997, []string{"deprecated gate RootlessControlPlane of kubeadm"}, nil, ""},
	{"1.31", 125067, []string{"added flag -v"}, nil, ""},
	{"1.31", 125259, []string{"graduated gate ProcMountType to beta"}, nil, ""},
	{"1.31", 125566, nil, []string{"added flag --yes of kubeadm"}, "added to a list of allowed flags, not a new flag"},
	{"1.32", 126786, []string{"removed gate AllowServiceLBStatusOnNonLB"}, nil, ""},
	{"1.32", 127123, []string{"removed flag --api-server-manifest of kubeadm upgrade diff", "removed flag --controller-manager-manifest of kubeadm upgrade diff", "removed flag --scheduler-manifest of kubeadm upgrade diff"}, nil, ""},
	{"1.32", 127402, []string{"graduated field ManagedBy to beta"}, nil, ""},
	{"1.32", 128168, []string{"graduated feature AuthorizeWithSelectors of kube-apiserver to beta", "graduated feature AuthorizeNodeWithSelectors to beta"}, nil, ""},
	{"1.34", 122634, []string{"graduated gate SeparateTaintEvictionController to stable"}, nil, ""},
	{"1.34", 130161, []string{"removed flag --cloud-config of kubelet"}, nil, ""},
	{"1.34", 132238, []string{"removed metric apiserver_encryption_config_controller_automatic_reload_success_total of kube-apiserver -> apiserver_encryption_config_controller_automatic_reloads_total", "removed metric apiserver_encryption_config_controller_automatic_reload_failure_total of kube-apiserver -> apiserver_encryption_config_controller_automatic_reloads_total"}, nil, ""},
	{"1.34", 132355, []string{"added gate SizeBasedListCostEstimate"}, nil, ""},
	{"1.34", 132595, []string{"graduated feature PodLifecycleSleepAction to stable"}, nil, ""},
	{"1.34", 132648, []string{"graduated feature StreamingCollectionEncodingToJSON to stable", "graduated feature StreamingCollectionEncodingToProtobuf to stable"}, nil, ""},
	{"1.34", 132767, []string{"default feature DRAPrioritizedList = true"}, nil, ""},
	{"1.34", 132822, []string{"graduated enhancement KEP-4205 to beta"}, nil, ""},
	{"1.34", 132932, []string{"added gate SizeBasedListCostEstimate"}, nil, ""},
	{"1.36", 134997, []string{"added flag --detach-keys of kubectl attach"}, nil, ""},
	{"1.36", 135522, []string{"graduated enhancement KEP-1206 to beta"}, nil, ""},
	{"1.36", 135742, []string{"graduated gate NodeLocalCRISocket of kubeadm to stable"}, nil, ""},
	{"1.36", 135808, []string{"deprecated gate SeparateCacheWatchRPC"}, nil, ""},
	{"1.36", 136116, []string{"graduated enhancement KEP-2862 to stable"}, nil, ""},
	{"1.36", 136118, []string{"graduated gate ExternalServiceAccountTokenSigner of kube-apiserver to stable"}, nil, ""},
	{"1.36", 136178, []string{"graduated metric reconciliations_total to beta", "graduated metric reconciliation_duration_seconds to beta", "graduated metric metric_computation_total to beta", "graduated metric metric_computation_duration_seconds to beta"}, nil, ""},
	{"1.36", 136539, []string{"added metric route_controller_route_sync_total"}, nil, ""},
	{"1.36", 136596, []string{"graduated gate CSIServiceAccountTokenSecrets to stable"}, nil, ""},
	{"1.36", 136643, []string{"graduated command kubectl kuberc to beta"}, nil, ""},
	{"1.36", 137101, []string{"added metric informer_processing_latency_seconds"}, nil, ""},
	{"1.36", 137115, []string{"added flag --tls-curve-preferences"}, nil, ""},
	{"1.36", 137172, []string{"graduated gate UnknownVersionInteroperabilityProxy of kube-apiserver to beta", "default gate UnknownVersionInteroperabilityProxy of kube-apiserver = true"}, nil, ""},
	{"1.36", 137384, []string{"graduated feature ComponentStatusz to beta"}, nil, ""},
}

// TestSummaryPrecision measures the titles of summaryCases: a title is
// precise when it quotes the entry (the rules could not read it with
// certainty) or every typed change it is written from is one read by
// hand as right, with its owner, stage, default and replacement; a
// change read as wrong must never come back. Precision must be 0.98 at
// least; run with -v for the figures and every imprecise title.
func TestSummaryPrecision(t *testing.T) {
	sharedtest.Root(t)
	if n := len(summaryCases); n < 200 {
		t.Fatalf("%d hand-checked summaries; want at least 200", n)
	}
	releases := map[string]int{}
	seen := map[string]bool{}
	precise, quoted := 0, 0
	for _, c := range summaryCases {
		id := fmt.Sprintf("%s#%d", c.release, c.pr)
		if seen[id] {
			t.Errorf("%s is in the table twice", id)
		}
		seen[id] = true
		releases[c.release]++
		ch := change(t, knowledge.MustVersion(c.release), c.pr)
		for _, w := range c.wrong {
			bad := parseEffect(t, w)
			for _, g := range ch.Effects {
				if matches(bad, g) && detailsAgree(bad, g) {
					t.Errorf("%s: the rules read %q again, which its words do not state (%s)", id, effectString(g), c.why)
				}
			}
		}
		if knowledge.EffectsTitle(ch.Effects, ch.Notice) == "" {
			precise++
			quoted++
			continue
		}
		ok := true
		for _, g := range ch.Effects {
			found := false
			for _, r := range c.right {
				if w := parseEffect(t, r); matches(w, g) && detailsAgree(w, g) && (g.Replacement == "" || g.Replacement == w.Replacement) && (g.Of == "" || g.Of == w.Of) {
					found = true
					break
				}
			}
			if !found {
				ok = false
				t.Logf("%s: title %q is written from %q, which no one checked as right", id, knowledge.ChangeTitle(ch), effectString(g))
			}
		}
		if ok {
			precise++
		}
	}
	if len(releases) < 12 {
		t.Errorf("the sample covers %d releases; want all of 1.25-1.36", len(releases))
	}
	p := float64(precise) / float64(len(summaryCases))
	t.Logf("%d summaries of %d releases: %d precise (%.3f), %d of them quoting the entry", len(summaryCases), len(releases), precise, p, quoted)
	if p < 0.98 {
		t.Errorf("summary precision %.3f; want at least 0.98", p)
	}
}

// TestSummariesNameOnlyWhatNotesName: the four summaries issue 30 found
// inventing facts. A title names only what its note names: no flag
// --etcd (the note removes the use of two etcd flags), no flag named
// klog (it says legacy klog flags), no annotation kubernetes.io/grpc (an
// appProtocol value).
func TestSummariesNameOnlyWhatNotesName(t *testing.T) {
	for _, c := range []struct {
		release string
		pr      int
		never   string
	}{
		{"1.36", 135701, "--etcd"},
		{"1.26", 112120, "flag klog"},
		{"1.27", 116866, "annotation"},
	} {
		ch := change(t, knowledge.MustVersion(c.release), c.pr)
		title := knowledge.ChangeTitle(ch)
		if strings.Contains(title, c.never) {
			t.Errorf("%s#%d is titled %q, naming %q, which its note does not", c.release, c.pr, title, c.never)
		}
		if first := strings.Fields(title); len(first) == 0 || !strings.Contains(ch.Text, first[0]) {
			t.Errorf("%s#%d is titled %q; want its note's own words", c.release, c.pr, title)
		}
	}
}
