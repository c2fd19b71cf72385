// The workload the inject benchmark repeats (also read by test/core/inject/fastPath.test.ts, which
// checks that the fast path takes every one of them).

const KINDS = [
  ['apps/v1', 'Deployment'],
  ['apps/v1', 'StatefulSet'],
  ['apps/v1', 'DaemonSet'],
  ['batch/v1', 'Job'],
];

/** A realistic workload: comments, labels, probes, env, resources; ports vary per workload. */
export function workload(i) {
  const [apiVersion, kind] = KINDS[i % KINDS.length];
  return `---
# workload ${i}: owned by team-${i % 17}
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: svc-${i}
  namespace: ns-${i % 50}
  labels:
    app: svc-${i}
    team: team-${i % 17}
spec:
  selector:
    matchLabels:
      app: svc-${i}
  template:
    metadata:
      labels:
        app: svc-${i}
      annotations:
        prometheus.io/scrape: "true"
    spec:
      containers:
      - name: app
        image: "ghcr.io/example/svc-${i}:1.${i % 9}.0"
        args: ["--port", "${8000 + (i % 100)}"]
        ports:
        - containerPort: ${8000 + (i % 100)}
          name: http
        readinessProbe:
          httpGet:
            path: /ready
            port: ${9000 + (i % 10)}
        env:
        - name: MODE
          value: production
        resources:
          requests: {cpu: 100m, memory: 64Mi}
`;
}

/** A deterministic pseudo-random stream (mulberry32) for workload `i`: the same numbers on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PORT_NAMES = ['http', 'grpc', 'metrics', 'admin', 'debug'];

/**
 * Workload `i` of a manifest whose workloads differ from each other, as real ones do (seeded, so
 * the same on every run): its own ports (one to four), a ServiceAccount of its own, a second
 * container in a third of them, probes written as flow mappings, env read with `valueFrom`,
 * comments on lines of their own and after values; every tenth workload brings a Service and a
 * ConfigMap. One or more YAML documents, each starting with `---`.
 */
export function variedWorkload(i) {
  const rnd = random(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b));
  const pick = (n) => Math.floor(rnd() * n);
  const [apiVersion, kind] = KINDS[i % KINDS.length];
  const name = `svc-${i}`;
  const ns = `ns-${i % 50}`;
  const base = 1024 + pick(30000);
  const ports = Array.from({ length: 1 + pick(4) }, (_, p) => ({ name: PORT_NAMES[p], port: base + p * 7 }));
  const probePort = ports[0].port;
  const container = (cname, image, cports, probes) => {
    let out = `      - name: ${cname}
        image: "${image}"
        imagePullPolicy: IfNotPresent
        args: ["--port", "${cports[0]?.port ?? 8080}", "--log-level", "${['info', 'debug', 'warn'][pick(3)]}"]
`;
    if (cports.length > 0) {
      out += `        ports:\n`;
      for (const p of cports) out += `        - containerPort: ${p.port} # ${p.name}\n          name: ${p.name}\n          protocol: TCP\n`;
    }
    if (probes) {
      out += `        livenessProbe:
          httpGet: {path: /healthz, port: ${probePort}}
          initialDelaySeconds: ${5 + pick(20)}
          periodSeconds: 10
        readinessProbe:
          httpGet: {path: /ready, port: ${probePort}, scheme: HTTP}
          timeoutSeconds: ${1 + pick(3)}
`;
      if (pick(3) === 0) out += `        startupProbe:\n          tcpSocket: {port: ${probePort}}\n          failureThreshold: 30\n`;
    }
    out += `        env:
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef:
              fieldPath: metadata.namespace
        - name: POD_NAME
          valueFrom:
            fieldRef: {fieldPath: metadata.name}
        - name: LOG_FORMAT
          value: json
`;
    if (pick(2) === 0)
      out += `        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: ${name}-db\n              key: password\n`;
    if (pick(2) === 0)
      out += `        - name: FEATURE_FLAGS\n          valueFrom:\n            configMapKeyRef: {name: flags-${Math.floor(i / 10)}, key: flags}\n`;
    out += `        resources:
          requests: {cpu: ${50 + pick(20) * 25}m, memory: ${32 * (1 + pick(8))}Mi}
          limits:
            memory: ${64 * (1 + pick(8))}Mi
`;
    return out;
  };
  let doc = `---
# ${kind} ${name}, owned by team-${i % 17}
# generated for the inject benchmark; do not edit
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${name}
  namespace: ${ns}
---
# workload ${i}: owned by team-${i % 17}
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: shop-${i % 13} # the product
    team: team-${i % 17}
spec:
`;
  if (kind === 'Deployment' || kind === 'StatefulSet') doc += `  replicas: ${1 + pick(5)}\n`;
  if (kind === 'StatefulSet') doc += `  serviceName: ${name}\n`;
  if (kind !== 'Job') doc += `  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${name}\n`;
  doc += `  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
        version: v${1 + pick(4)}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "${probePort}"
    spec:
      serviceAccountName: ${name}
      # the application, then its helpers
      containers:
${container('app', `ghcr.io/example/${name}:1.${pick(20)}.${pick(10)}`, ports, true)}`;
  if (i % 3 === 0) {
    doc += container('log-shipper', `docker.io/fluent/fluent-bit:3.${pick(3)}`, pick(2) === 0 ? [{ name: 'fb-metrics', port: 2020 }] : [], false);
    doc += `        volumeMounts:\n        - name: logs\n          mountPath: /var/log/app\n`;
  }
  if (kind === 'Job') doc += `      restartPolicy: Never\n`;
  if (i % 3 === 0) doc += `      volumes:\n      - name: logs\n        emptyDir: {}\n`;
  if (i % 10 === 0) {
    doc += `---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    app.kubernetes.io/name: ${name}
  ports:
${ports.map((p) => `  - name: ${p.name}\n    port: ${p.port}\n    targetPort: ${p.name}\n`).join('')}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags-${i / 10}
  namespace: ${ns}
data:
  flags: "beta,${['search', 'cart', 'checkout'][pick(3)]}"
  app.properties: |
    mode=production
    cache.size=${pick(1000)}
`;
  }
  return doc;
}
