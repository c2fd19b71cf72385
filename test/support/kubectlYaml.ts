/*
 * `kubectl get deployments -o yaml` output as kubectl prints it for objects applied with kubectl and
 * managed by the deployment controller: a List whose items carry managedFields (the `f:…: {}` lines
 * that are the densest real YAML) and the last-applied-configuration annotation.
 */

function deployment(i: number): string {
  const name = `web-${i}`;
  const applied = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { annotations: {}, labels: { app: name }, name, namespace: 'shop' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ image: 'ghcr.io/example/web:1.4.2', name: 'web', ports: [{ containerPort: 8080 }] }] },
      },
    },
  });
  return `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    annotations:
      deployment.kubernetes.io/revision: "3"
      kubectl.kubernetes.io/last-applied-configuration: |
        ${applied}
    creationTimestamp: "2024-05-02T09:14:11Z"
    generation: 3
    labels:
      app: ${name}
    managedFields:
    - apiVersion: apps/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            .: {}
            f:kubectl.kubernetes.io/last-applied-configuration: {}
          f:labels:
            .: {}
            f:app: {}
        f:spec:
          f:progressDeadlineSeconds: {}
          f:replicas: {}
          f:revisionHistoryLimit: {}
          f:selector: {}
          f:strategy:
            f:rollingUpdate:
              .: {}
              f:maxSurge: {}
              f:maxUnavailable: {}
            f:type: {}
          f:template:
            f:metadata:
              f:labels:
                .: {}
                f:app: {}
            f:spec:
              f:containers:
                k:{"name":"web"}:
                  .: {}
                  f:image: {}
                  f:imagePullPolicy: {}
                  f:name: {}
                  f:ports:
                    .: {}
                    k:{"containerPort":8080,"protocol":"TCP"}:
                      .: {}
                      f:containerPort: {}
                      f:protocol: {}
                  f:resources: {}
                  f:terminationMessagePath: {}
                  f:terminationMessagePolicy: {}
              f:dnsPolicy: {}
              f:restartPolicy: {}
              f:schedulerName: {}
              f:securityContext: {}
              f:terminationGracePeriodSeconds: {}
      manager: kubectl-client-side-apply
      operation: Update
      time: "2024-05-02T09:14:11Z"
    - apiVersion: apps/v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            f:deployment.kubernetes.io/revision: {}
        f:status:
          f:availableReplicas: {}
          f:conditions:
            .: {}
            k:{"type":"Available"}:
              .: {}
              f:lastTransitionTime: {}
              f:lastUpdateTime: {}
              f:message: {}
              f:reason: {}
              f:status: {}
              f:type: {}
            k:{"type":"Progressing"}:
              .: {}
              f:lastTransitionTime: {}
              f:lastUpdateTime: {}
              f:message: {}
              f:reason: {}
              f:status: {}
              f:type: {}
          f:observedGeneration: {}
          f:readyReplicas: {}
          f:replicas: {}
          f:updatedReplicas: {}
      manager: kube-controller-manager
      operation: Update
      subresource: status
      time: "2024-05-02T09:20:40Z"
    name: ${name}
    namespace: shop
    resourceVersion: "${100000 + i}"
    uid: 6c1f0e2a-${String(i).padStart(4, '0')}-4b7e-9d35-2f61a8c0e9b4
  spec:
    progressDeadlineSeconds: 600
    replicas: 2
    revisionHistoryLimit: 10
    selector:
      matchLabels:
        app: ${name}
    strategy:
      rollingUpdate:
        maxSurge: 25%
        maxUnavailable: 25%
      type: RollingUpdate
    template:
      metadata:
        creationTimestamp: null
        labels:
          app: ${name}
      spec:
        containers:
        - image: ghcr.io/example/web:1.4.2
          imagePullPolicy: IfNotPresent
          name: web
          ports:
          - containerPort: 8080
            protocol: TCP
          resources: {}
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        restartPolicy: Always
        schedulerName: default-scheduler
        securityContext: {}
        terminationGracePeriodSeconds: 30
  status:
    availableReplicas: 2
    conditions:
    - lastTransitionTime: "2024-05-02T09:14:11Z"
      lastUpdateTime: "2024-05-02T09:20:40Z"
      message: ReplicaSet "${name}-5d8f7c9b6d" has successfully progressed.
      reason: NewReplicaSetAvailable
      status: "True"
      type: Progressing
    - lastTransitionTime: "2024-05-02T09:20:40Z"
      lastUpdateTime: "2024-05-02T09:20:40Z"
      message: Deployment has minimum availability.
      reason: MinimumReplicasAvailable
      status: "True"
      type: Available
    observedGeneration: 3
    readyReplicas: 2
    replicas: 2
    updatedReplicas: 2
`;
}

/** A `kubectl get deployments -o yaml` List of `count` Deployments. */
export function kubectlGetYaml(count: number): string {
  const items = Array.from({ length: count }, (_, i) => deployment(i)).join('');
  return `apiVersion: v1\nitems:\n${items}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}
