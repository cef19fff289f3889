package kubernetes_test

import (
	"fmt"
	"slices"
	"strings"
)

// restrictedViolations returns what keeps a Pod with these annotations and
// this spec out of a namespace that enforces the Pod Security Standards'
// "restricted" profile, one line a control broken, or nothing. The rules
// are the documented ones
// (https://kubernetes.io/docs/concepts/security/pod-security-standards/),
// every baseline control included, as Pod Security admission
// (k8s.io/pod-security-admission/policy) checks them.
func restrictedViolations(annotations map[string]any, spec map[string]any) []string {
	var v []string
	bad := func(format string, args ...any) { v = append(v, fmt.Sprintf(format, args...)) }
	pod := mapOf(spec["securityContext"])
	type ctr struct {
		field string
		c     map[string]any
		sc    map[string]any
	}
	var ctrs []ctr
	for _, field := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range list(spec[field]) {
			ctrs = append(ctrs, ctr{field + "[" + str(c["name"]) + "]", c, mapOf(c["securityContext"])})
		}
	}

	// Baseline: host namespaces, privileged, host ports, host probes,
	// AppArmor, SELinux, /proc mount, sysctls, Windows host processes.
	for _, f := range []string{"hostNetwork", "hostPID", "hostIPC"} {
		if spec[f] == true {
			bad("baseline host namespaces: spec.%s is true", f)
		}
	}
	allowedSELinux := []string{"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}
	checkSELinux := func(where string, sc map[string]any) {
		o := mapOf(sc["seLinuxOptions"])
		if !slices.Contains(allowedSELinux, str(o["type"])) || o["user"] != nil || o["role"] != nil {
			bad("baseline SELinux: %s.seLinuxOptions %v", where, o)
		}
	}
	checkAppArmor := func(where string, sc map[string]any) {
		if t := str(get(sc, "appArmorProfile", "type")); t != "" && t != "RuntimeDefault" && t != "Localhost" {
			bad("baseline AppArmor: %s.appArmorProfile.type %s", where, t)
		}
	}
	checkSELinux("spec.securityContext", pod)
	checkAppArmor("spec.securityContext", pod)
	for k, val := range annotations {
		if strings.HasPrefix(k, "container.apparmor.security.beta.kubernetes.io/") {
			if s := str(val); s != "runtime/default" && !strings.HasPrefix(s, "localhost/") {
				bad("baseline AppArmor: annotation %s is %s", k, s)
			}
		}
	}
	safeSysctls := []string{"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies",
		"net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start", "net.ipv4.ip_local_reserved_ports",
		"net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
		"net.ipv4.tcp_keepalive_probes", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"}
	for _, s := range list(pod["sysctls"]) {
		if !slices.Contains(safeSysctls, str(s["name"])) {
			bad("baseline sysctls: %s is not a safe sysctl", s["name"])
		}
	}
	if get(pod, "windowsOptions", "hostProcess") == true {
		bad("baseline HostProcess: spec.securityContext.windowsOptions.hostProcess is true")
	}
	for _, c := range ctrs {
		if c.sc["privileged"] == true {
			bad("baseline privileged: %s is privileged", c.field)
		}
		if get(c.sc, "windowsOptions", "hostProcess") == true {
			bad("baseline HostProcess: %s", c.field)
		}
		for _, p := range list(c.c["ports"]) {
			if n, ok := p["hostPort"].(int); ok && n != 0 {
				bad("baseline host ports: %s uses hostPort %d", c.field, n)
			}
		}
		for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			for _, h := range []string{"httpGet", "tcpSocket"} {
				if get(c.c, probe, h, "host") != nil {
					bad("baseline probe host: %s.%s.%s.host is set", c.field, probe, h)
				}
			}
		}
		for _, hook := range []string{"postStart", "preStop"} {
			for _, h := range []string{"httpGet", "tcpSocket"} {
				if get(c.c, "lifecycle", hook, h, "host") != nil {
					bad("baseline lifecycle host: %s.lifecycle.%s.%s.host is set", c.field, hook, h)
				}
			}
		}
		checkSELinux(c.field+".securityContext", c.sc)
		checkAppArmor(c.field+".securityContext", c.sc)
		if pm := str(c.sc["procMount"]); pm != "" && pm != "Default" {
			bad("baseline /proc mount: %s.procMount is %s", c.field, pm)
		}
	}

	// Restricted: volume types, privilege escalation, non-root, seccomp,
	// capabilities.
	volumeSources := []string{"configMap", "downwardAPI", "emptyDir", "projected", "secret", "csi",
		"persistentVolumeClaim", "ephemeral", "image"}
	for _, vol := range list(spec["volumes"]) {
		for k := range vol {
			if k != "name" && !slices.Contains(volumeSources, k) {
				bad("restricted volume types: volume %s is a %s", vol["name"], k)
			}
		}
	}
	podNonRoot := pod["runAsNonRoot"] == true
	if pod["runAsUser"] == 0 {
		bad("restricted non-root user: spec.securityContext.runAsUser is 0")
	}
	podSeccomp := str(get(pod, "seccompProfile", "type"))
	seccompOK := func(t string) bool { return t == "RuntimeDefault" || t == "Localhost" }
	if podSeccomp != "" && !seccompOK(podSeccomp) {
		bad("restricted seccomp: spec.securityContext.seccompProfile.type is %s", podSeccomp)
	}
	for _, c := range ctrs {
		if c.sc["allowPrivilegeEscalation"] != false {
			bad("restricted privilege escalation: %s does not set allowPrivilegeEscalation: false", c.field)
		}
		switch nonRoot, set := c.sc["runAsNonRoot"]; {
		case set && nonRoot != true:
			bad("restricted non-root: %s sets runAsNonRoot to %v", c.field, nonRoot)
		case !set && !podNonRoot:
			bad("restricted non-root: neither the pod nor %s sets runAsNonRoot: true", c.field)
		}
		if c.sc["runAsUser"] == 0 {
			bad("restricted non-root user: %s runs as user 0", c.field)
		}
		switch t := str(get(c.sc, "seccompProfile", "type")); {
		case t != "" && !seccompOK(t):
			bad("restricted seccomp: %s uses %s", c.field, t)
		case t == "" && !seccompOK(podSeccomp):
			bad("restricted seccomp: neither the pod nor %s sets seccompProfile RuntimeDefault or Localhost", c.field)
		}
		caps := mapOf(c.sc["capabilities"])
		if !slices.Contains(strs(caps["drop"]), "ALL") {
			bad("restricted capabilities: %s does not drop ALL", c.field)
		}
		for _, add := range strs(caps["add"]) {
			if add != "NET_BIND_SERVICE" {
				bad("restricted capabilities: %s adds %s", c.field, add)
			}
		}
	}
	return v
}

// mapOf is v as a map; an empty one when it is not.
func mapOf(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}
