import { LINKERD_VERSION } from '../../../src/core/version.js';
import { VIZ_NAMESPACE, renderViz, vizCredentials, type VizObject } from '../../../src/families/viz/chart/index.js';
import type { StoredObject } from '../../support/apiserver.js';
import { healthyCluster } from '../../core/check/support/clusters.js';
import { composeVizValues } from './support.js';

/*
 * A cluster with Linkerd and a healthy viz: the core fixture of the check tests, the chart's own
 * render (with freshly made tap certificates), and for each viz Deployment a ReplicaSet and a
 * Running, ready, injected pod — what the API server would hold once everything started.
 */

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** The ReplicaSet and injected pods of one viz Deployment. */
function podsOf(deploy: VizObject, index: number): StoredObject[] {
  const name = deploy.metadata.name ?? '';
  const template = clone(
    (deploy.spec as { template: { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; spec: { containers: object[] } } })
      .template,
  );
  const hash = `5f7c9d8b${index}`;
  const running = { running: { startedAt: '${now-50m}' } };
  const containers = [{ name: 'linkerd-proxy', image: `cr.l5d.io/linkerd/proxy:${LINKERD_VERSION}` }, ...template.spec.containers];
  const rs: StoredObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${name}-${hash}`,
      namespace: VIZ_NAMESPACE,
      labels: template.metadata.labels,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: `00000000-0000-0000-0000-00000000010${index}`, controller: true }],
    },
    spec: { replicas: 1, selector: { matchLabels: template.metadata.labels }, template },
    status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 },
  };
  const pod: StoredObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${hash}-abcd0`,
      namespace: VIZ_NAMESPACE,
      labels: { ...template.metadata.labels, 'linkerd.io/control-plane-ns': 'linkerd', 'pod-template-hash': hash },
      annotations: { ...template.metadata.annotations, 'viz.linkerd.io/tap-enabled': 'true' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${hash}`, uid: `00000000-0000-0000-0000-00000000020${index}`, controller: true },
      ],
      creationTimestamp: '${now-1h}',
    },
    spec: { ...template.spec, containers },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
      containerStatuses: containers.map((c) => ({ name: (c as { name: string }).name, ready: true, started: true, restartCount: 0, state: running })),
    },
  };
  return [rs, pod];
}

/** The objects of a default `viz install`, as they are once applied (the APIService Available). */
export async function vizObjects(overlays: object[] = []): Promise<StoredObject[]> {
  const values = composeVizValues(overlays);
  const credentials = await vizCredentials(values, VIZ_NAMESPACE, new Date());
  const objects = renderViz(values, { namespace: VIZ_NAMESPACE, credentials }) as unknown as StoredObject[];
  for (const o of objects) {
    if (o.kind === 'APIService') o.status = { conditions: [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }] };
  }
  const workloads = objects.filter((o) => o.kind === 'Deployment').flatMap((d, i) => podsOf(d as unknown as VizObject, i));
  return [...objects, ...workloads];
}

/** Linkerd (healthy, as `linkerd check` sees it) with viz installed. */
export async function clusterWithViz(o: { cniEnabled?: boolean; viz?: (objects: StoredObject[]) => StoredObject[] } = {}): Promise<StoredObject[]> {
  const core = await healthyCluster({ values: (v) => (o.cniEnabled ? (v.cniEnabled = true) : undefined) });
  const viz = await vizObjects();
  return [...core.objects, ...(o.viz ? o.viz(viz) : viz)];
}
