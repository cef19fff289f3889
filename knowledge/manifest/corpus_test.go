package manifest

// realWorld is a table of documents shaped like the manifests people
// scan: what kubectl, helm and kustomize write, and what people write by
// hand. The differential test runs both paths on each, and on many
// mutations of each.
var realWorld = []string{
	`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/version: "1.2.3"
  annotations:
    deployment.kubernetes.io/revision: "3"
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: "nginx:1.27"
        args: ["--port", "8080", '--verbose']
        ports:
        - containerPort: 8080
          protocol: TCP
        env:
        - name: A
          value: "x: y"
        - name: B
          valueFrom:
            secretKeyRef: {name: s, key: k}
        resources: {}
        command:
          - /bin/sh
          - -c
          - |
            echo "starting"   # not a comment
            exec nginx -g 'daemon off;'
      volumes: []
`,
	`# Source: app/templates/secret.yaml
apiVersion: v1
kind: Secret
metadata:
  name: creds
type: Opaque
data:
  password: aHVudGVyMg==
stringData:
  token: "s3cr3t-token"
  config.yaml: |-
    user: admin
    password: hunter2
`,
	`apiVersion: v1
kind: ConfigMap
metadata:
  name: scripts
data:
  run.sh: |
    #!/bin/sh
    set -e

    if [ -n "$X" ]; then
      echo "x: $X"
    fi
  empty: ""
  folded: >
    one
    two

  keep: |+
    kept

  strip: |-
    stripped
`,
	`apiVersion: networking.k8s.io/v1beta1
kind: Ingress
metadata:
  name: legacy
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /$2
    kubernetes.io/ingress.class: nginx
spec:
  rules:
  - host: example.com
    http:
      paths:
      - path: /api(/|$)(.*)
        backend:
          serviceName: api
          servicePort: 80
`,
	`apiVersion: v1
items:
- apiVersion: v1
  kind: Service
  metadata:
    creationTimestamp: "2024-01-01T00:00:00Z"
    name: kubernetes
    namespace: default
    resourceVersion: "123"
  spec:
    clusterIP: 10.0.0.1
    ports:
    - name: https
      port: 443
      protocol: TCP
      targetPort: 6443
- apiVersion: policy/v1beta1
  kind: PodDisruptionBudget
  metadata:
    name: pdb
    namespace: default
  spec:
    minAvailable: 1
kind: List
metadata:
  resourceVersion: ""
`,
	`apiVersion: apps/v1
kind: DeploymentList
items:
  - metadata:
      name: a
      namespace: x
    spec: {replicas: 1}
  - metadata:
      name: b
metadata: {}
`,
	`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: prod
resources:
  - deployment.yaml
  - service.yaml
patches:
  - path: patch.yaml
    target:
      kind: Deployment
images:
  - name: nginx
    newTag: "1.27"
`,
	`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-preserve-unknown-fields: true
              properties:
                size: {type: integer, minimum: 1}
                mode: {type: string, enum: [a, b, "c d"]}
`,
	`apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: "nightly"
  namespace: 'ops'
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: job
              image: busybox
              command: ["sh", "-c", "date; echo done"]
`,
	`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
rules:
- apiGroups: [""]
  resources: ["pods", "pods/log"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["apps", "extensions"]
  resources: ['*']
  verbs: ['*']
`,
	`apiVersion: v1
kind: Pod
metadata:
  name: p   # the pod
  # namespace: commented
spec:
  containers:
    -   name: c
        image: x
    -
      name: d
      image: y
  tolerations:
  - key: "node.kubernetes.io/not-ready"
    operator: "Exists"
    effect: "NoExecute"
    tolerationSeconds: 300
`,
	`{
    "apiVersion": "v1",
    "kind": "List",
    "items": [
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "annotations": {
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"extensions/v1beta1\",\"kind\":\"Deployment\"}\n"
                },
                "name": "web",
                "namespace": "prod"
            },
            "spec": {"replicas": 2, "paused": false, "x": null, "y": -1.5e3}
        }
    ],
    "metadata": {"resourceVersion": ""}
}
`,
	`{"clientVersion":{"major":"1","minor":"29","gitVersion":"v1.29.1"},"kustomizeVersion":"v5.0.4","serverVersion":{"major":"1","minor":"28+","gitVersion":"v1.28.3-gke.1"}}`,
	`clientVersion:
  gitVersion: v1.29.1
  major: "1"
  minor: "29"
kustomizeVersion: v5.0.4
serverVersion:
  gitVersion: v1.27.2
  major: "1"
  minor: "27"
`,
	`Client Version: v1.29.1
Kustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3
Server Version: v1.28.3
`,
	`replicaCount: 1
image:
  repository: nginx
  tag: ""
service:
  type: ClusterIP
  port: 80
kind: Deployment
ingress:
  enabled: false
  hosts:
    - host: chart-example.local
      paths: []
`,
	`apiVersion: v1
kind: Service
metadata:
  name: svc
  namespace: null
spec:
  ports:
  - port: 80
    targetPort: http
  selector:
    app: web
status:
  loadBalancer: {}
`,
	`apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: rules
spec:
  groups:
  - name: k8s
    rules:
    - alert: Down
      expr: up{job="api"} == 0
      for: 5m
      labels: {severity: critical}
      annotations:
        summary: 'Instance {{ $labels.instance }} down'
        description: "It's down: for real"
`,
	`x-defaults: &d
  apiVersion: apps/v1
  kind: Deployment
list:
  - <<: *d
    metadata: {name: a}
`,
	`apiVersion: v1
kind: ConfigMap
metadata:
  name: anchors
data:
  a: &a value
  b: *a
`,
	`apiVersion: v1
kind: ConfigMap
metadata:
  name: multi
data:
  long: this is a plain
    scalar over lines
`,
	`? complex
: value
apiVersion: v1
kind: A
`,
	`apiVersion: v1
kind: Namespace
metadata:
  name: "team-a"
  labels:
    "pod-security.kubernetes.io/enforce": restricted
`,
	`- apiVersion: v1
  kind: ServiceAccount
  metadata:
    name: sa
- apiVersion: rbac.authorization.k8s.io/v1beta1
  kind: RoleBinding
  metadata:
    name: rb
`,
	`apiVersion: v1
kind: Pod
metadata:
  name: 2021-01-01
  namespace: 0x1F
`,
	`apiVersion: v1
kind: Pod
metadata:
  name: 1e999
  namespace: "0"
`,
	`apiVersion: 'v1'
"kind": Pod
'metadata':
  "name": x
`,
	`apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: a
    image: b
  - - nested
    - list
  -
    - x
  - key: |
      text
    other: >-
      folded
`,
	`# only a comment, then a scalar
hello world
`,
	`apiVersion: v1
kind: A
metadata:
  name: x
spec:
  a: 'single # not a comment'
  b: "double # not a comment"
  c: plain#nocomment
  d: x # comment
  e: [a, [b, {c: d}], "e"]
  f: {}
  g: []
  h: ~
  i: yes
  j: 'it''s'
  k: "esc \" \\ \t"
`,
}

// tricky is a table of documents at the edges of the fast path: what it
// must read exactly as the YAML library does, or leave to it.
var tricky = []string{
	"apiVersion: v1\nkind: A\nx: |\n\n   \n  text\n  more\n",
	"apiVersion: v1\nkind: A\nx: |\n     \n  text\n",
	"apiVersion: v1\nkind: A\nx: >\n  a\n\n  b\n   c\n# comment\ny: 1\n",
	"apiVersion: v1\nkind: A\nx: |\ntext\n",
	"apiVersion: v1\nkind: A\nx: |-\n  a\n  # not a comment\n y: 1\n",
	"apiVersion: v1\nkind: A\nl:\n- |\n  a\n- >-\n  b\n- c: |\n    d\n  e: f\n",
	"apiVersion: v1\nkind: A\nl:\n  - c: |\n     d\n",
	"apiVersion: v1\nkind: A\nl:\n  - c: |\n    d\n",
	"apiVersion: v1\nkind: A\nx: |\n\ttab\n",
	"apiVersion: v1\nkind: A\nx: |\n  \ttab after indent\n",
	"apiVersion: v1\nkind: A\nx: | x\n",
	"apiVersion: v1\nkind: A\nx: |#c\n",
	"apiVersion: v1\nkind: A\nx: |2\n   a\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: true\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: ~x\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: .5\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: -1_000\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: +.INF\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: 0o17\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: 0b101\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: 1.2.3\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: 2001-12-14t21:59:43.10-05:00\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: <<\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: no\n  namespace: off\n",
	"apiVersion: 1.0\nkind: A\n",
	"apiVersion: \"\"\nkind: A\n",
	"apiVersion:\nkind: A\n",
	"apiVersion: v1\nkind:\n  - A\n",
	"apiVersion: v1\nkind: A\nmetadata:\n",
	"apiVersion: v1\nkind: A\nmetadata: []\n",
	"apiVersion: v1\nkind: A\nmetadata: x\n",
	"apiVersion: v1\nkind: A\nmetadata: {name: [a], namespace: {b: c}}\n",
	"apiVersion: v1\nkind: A\nmetadata: {name: a, name: b}\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: a\n  name: b\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: a\nmetadata:\n  name: b\n",
	"apiVersion: v1\nkind: List\nitems:\n",
	"apiVersion: v1\nkind: List\nitems: ~\n",
	"apiVersion: v1\nkind: List\nitems: {}\n",
	"apiVersion: v1\nkind: List\nitems: x\n",
	"apiVersion: v1\nkind: List\nitems:\n-\n- - a\n- x\n- {}\n- kind: A\n- apiVersion: v1\n",
	"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: A\n  items:\n  - apiVersion: v1\n    kind: Inner\n",
	"apiVersion: apps/v1\nkind: DeploymentList\nitems:\n- metadata: {name: a}\n- kind: Deployment\n",
	"kind: List\nitems:\n- apiVersion: v1\n  kind: A\n",
	"- a\n- b\n",
	"- apiVersion: v1\n  kind: A\n- x\n-\n",
	"-\n  apiVersion: v1\n  kind: A\n",
	"a:\n- b\n-   c: d\n    e: f\n- - g\n  - h\n",
	"a:\n  - b\n - c\n",
	"a:\n  b:\n  - c\n  d: e\n",
	"a: b\n  # comment\nc: d\n",
	"a:\n# comment at 0\n  b: c\n",
	"a: 'x' # c\nb: \"y\"  #c\n",
	"a: 'x'#c\n",
	"a: \"x\"y\n",
	"\"a b\": 1\n'c''d': 2\n\"e\\\"f\": 3\n",
	"a  : b\n\"c\"  : d\n",
	"a:b: c\n",
	"a: b:c\n",
	"http://x: y\n",
	"a: x[0] {b}\n",
	"a: [a, [b, c], {d: e, f: [g]}, 'h', \"i\"]\n",
	"a: [a , b ]\n",
	"a: [a,b]\n",
	"a: [a,]\n",
	"a: [,a]\n",
	"a: {a}\n",
	"a: {a: }\n",
	"a: {a:b}\n",
	"a: {\"a\":b}\n",
	"a: [a: b]\n",
	"a: [-1, -a, - b]\n",
	"a: [a\n  , b]\n",
	"a: {}x\n",
	"a: {} # c\n",
	"a: [] ]\n",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"metadata\":{\"name\":\"x\"}}",
	"{\"apiVersion\" : \"v1\" , \"kind\" : \"A\" }\n",
	"{\n\"apiVersion\": \"v1\",\n\"kind\": \"A\"\n}\n",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"n\":[1,-2.5e+3,0,true,false,null,{},[]]}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"metadata\":{\"name\":1e999}}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"metadata\":{\"name\":12,\"namespace\":null}}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"s\":\"\\u00e9\\n\\t\\\"\\\\\"}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"s\":\"\\/\"}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"s\":\"\\ud83d\\ude00\"}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",\"metadata\":{\"name\":\"\\u0041\"}}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\"\n:1}",
	"{\"apiVersion\"\n:\"v1\",\"kind\":\"A\"}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\",}",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\"} x",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\"}\n\t\n",
	"{\"apiVersion\":\"v1\",\"kind\":\"A\"}{\"apiVersion\":\"v1\",\"kind\":\"B\"}",
	"[{\"apiVersion\":\"v1\",\"kind\":\"A\"}, 1, [2], {\"x\": 1}]",
	"[]",
	"{}",
	"[1, 2",
	"{\"a\": [1, 2}",
	"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": null}",
	"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": {}}",
	"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [null, \"x\", {\"kind\": \"A\"}]}",
	"{\"apiVersion\": \"apps/v1\", \"kind\": \"DeploymentList\", \"items\": [{\"metadata\": {\"name\": \"a\"}}]}",
	"{\"apiVersion\": \"v1\", \"apiVersion\": \"v2\", \"kind\": \"A\"}",
	"{\"a\": 01}",
	"{\"a\": 1.}",
	"{\"a\": tru}",
	"{\"a\": \"x\ty\"}",
	"{'a': 1}",
	"{a: 1}",
	"{\"a\": 1} # c",
	"{\"\": 1, \"apiVersion\": \"v1\", \"kind\": \"A\"}",
	"  {\"apiVersion\": \"v1\", \"kind\": \"A\"}",
	"key: \u00e9t\u00e9\napiVersion: v1\nkind: \u00c5\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: \"\u00e9\"\n  namespace: '\u00e9'\n",
	"apiVersion: v1\nkind: A\nx: @a\n",
	"apiVersion: v1\nkind: A\nx: `a\n",
	"apiVersion: v1\nkind: A\nx: %a\n",
	"apiVersion: v1\nkind: A\nx: ,a\n",
	"apiVersion: v1\nkind: A\nx: ]a\n",
	"apiVersion: v1\nkind: A\nx: ?a\n",
	"apiVersion: v1\nkind: A\nx: :a\n",
	"apiVersion: v1\nkind: A\nx: - a\n",
	"apiVersion: v1\nkind: A\nx: -a\n",
	"apiVersion: v1\nkind: A\nx: a: b\n",
	"apiVersion: v1\nkind: A\nx: a:\n",
	"apiVersion: v1\nkind: A\nx: a #b: c\n",
	"apiVersion: v1\nkind: A\nx: \"a\\\"\"\n",
	"apiVersion: v1\nkind: A\nx: \"a\\\n  b\"\n",
	"apiVersion: v1\nkind: A\nx: 'a\n  b'\n",
	"apiVersion: v1\nkind: A\nx:\n  a\n",
	"apiVersion: v1\nkind: A\nx:\n- a\n  - b\n",
	"apiVersion: v1\nkind: A\n x: 1\n",
	"  apiVersion: v1\n  kind: A\n",
	"  apiVersion: v1\n  kind: A\nx: 1\n",
	"apiVersion: v1\nkind: A\n-a: 1\n",
	"apiVersion: v1\nkind: A\n? a\n",
	"apiVersion: v1\nkind: A\n[a]: 1\n",
	"apiVersion: v1\nkind: A\n{a: b}: 1\n",
	"apiVersion: v1\nkind: A\n\"a\": 1\n'b': 2\n\"c\" x: 3\n",
	"apiVersion: v1\nkind: A\n\"a\\tb\": 1\n",
	"apiVersion: v1\nkind: A\nx: \"\\x41\"\n",
	"apiVersion: v1\nkind: A\nx: \"\\q\"\n",
	"apiVersion: v1\nkind: A\nx: \"\\/\"\n",
	"apiVersion: v1\nkind: A\nx: \"\\_\\N\\L\\P\\e\\0\\ \"\n",
	"apiVersion: v1\nkind: A\nmetadata:\n  name: \"a\\tb\"\n",
	"apiVersion: v1\nkind: A\nx: a\t\n",
	"apiVersion: v1\nkind: A\nx:\ta\n",
	"apiVersion: v1\nkind: A\n\t\n",
	"apiVersion: v1\nkind: A\n# c\twith tab\n",
}
