import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeClient } from './kubeClient.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { ResourceType } from './resources.js';

interface Owned {
  metadata?: ObjectMeta;
  spec?: unknown;
}

/*
 * The pods of one workload, as linkerd's pkg/k8s GetPodsFor finds them: the workload's
 * `matchLabels` (its `matchExpressions` are ignored, as there) select candidate pods, kept when
 * the workload (a Deployment: one of its ReplicaSets) is their owner. A CronJob yields no pods,
 * as in the real CLI (it compares each Job's own UID with the Job's owner references).
 */

export class UnsupportedResourceError extends Error {}

const REPLICATION_CONTROLLERS: ResourceType = { group: '', version: 'v1', plural: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true };

const OWNED_BY_SELECTOR = {
  daemonset: 'daemonsets',
  job: 'jobs',
  replicaset: 'replicasets',
  statefulset: 'statefulsets',
} as const;

function matchLabelsOf(obj: Owned, replicationController = false): string {
  const selector = (obj.spec as { selector?: Record<string, unknown> } | undefined)?.selector ?? {};
  const labels = (replicationController ? selector : selector.matchLabels) as Record<string, string> | undefined;
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

const ownedBy = (o: Owned, uid: string | undefined) => uid !== undefined && (o.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);

async function ownedPods(kube: KubeClient, namespace: string, owner: Owned, labelSelector: string): Promise<Pod[]> {
  const pods = await kube.list('pods', { namespace, labelSelector });
  return pods.filter((p) => ownedBy(p, owner.metadata?.uid));
}

/** The pods of `type/name` (`type` canonical: `deployment`, `pod`, …). */
export async function podsFor(kube: KubeClient, namespace: string, type: string, name: string): Promise<Pod[]> {
  if (type === 'pod') return [await kube.get('pods', name, namespace)];
  if (type === 'cronjob') {
    await kube.get('cronjobs', name, namespace);
    return [];
  }
  if (type === 'deployment') {
    const deploy = await kube.get('deployments', name, namespace);
    const sets = (await kube.list('replicasets', { namespace, labelSelector: matchLabelsOf(deploy) })).filter((rs) => ownedBy(rs, deploy.metadata?.uid));
    const pods: Pod[] = [];
    for (const rs of sets) pods.push(...(await ownedPods(kube, namespace, rs, matchLabelsOf(rs))));
    return pods;
  }
  if (type === 'replicationcontroller') {
    const rc = await kube.get(REPLICATION_CONTROLLERS, name, namespace);
    return ownedPods(kube, namespace, rc, matchLabelsOf(rc, true));
  }
  if (Object.prototype.hasOwnProperty.call(OWNED_BY_SELECTOR, type)) {
    const obj = await kube.get(OWNED_BY_SELECTOR[type as keyof typeof OWNED_BY_SELECTOR], name, namespace);
    return ownedPods(kube, namespace, obj, matchLabelsOf(obj));
  }
  // The real message names the resource name, not its type.
  throw new UnsupportedResourceError(`unsupported resource type: ${name}`);
}
