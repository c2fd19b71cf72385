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
