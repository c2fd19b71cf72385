import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1.js';
import type { ServedResource } from './apiserver-resources.js';
import type { StoredObject } from './apiserver-store.js';

/**
 * Server-side printing (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), the way
 * kubectl ≥ 1.11 asks for `kubectl get` output. Columns follow kube-apiserver's printers
 * for the common kinds; anything else gets NAME/AGE.
 */

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  cell: (o: any, now: Date) => unknown;
}

/** kubectl's `duration.HumanDuration`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

const col = (name: string, cell: Column['cell'], opts: Partial<Omit<Column, 'name' | 'cell'>> = {}): Column => ({
  name,
  type: opts.type ?? 'string',
  format: opts.format ?? '',
  description: opts.description ?? name,
  priority: opts.priority ?? 0,
  cell,
});

const nameCol = col('Name', (o) => o.metadata.name, { format: 'name', description: 'Name must be unique within a namespace.' });
const ageCol = col('Age', (o, now) => (o.metadata.creationTimestamp ? humanDuration(now.getTime() - Date.parse(o.metadata.creationTimestamp)) : '<unknown>'), {
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
});

function isSidecar(c: any): boolean {
  return c?.restartPolicy === 'Always';
}

/** kubectl's pod STATUS column (printPod), trimmed to the common cases. */
export function podStatus(pod: any): string {
  let reason: string = pod.status?.reason || pod.status?.phase || 'Unknown';
  const initSpecs: any[] = pod.spec?.initContainers ?? [];
  const initStatuses: any[] = pod.status?.initContainerStatuses ?? [];
  let initializing = false;
  initStatuses.forEach((s, i) => {
    if (initializing) return;
    const t = s.state?.terminated;
    if (t && t.exitCode === 0) return;
    if (isSidecar(initSpecs.find((c) => c.name === s.name)) && s.started) return;
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`;
    else if (s.state?.waiting?.reason && s.state.waiting.reason !== 'PodInitializing') reason = `Init:${s.state.waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
  });
  if (!initializing) {
    let hasRunning = false;
    const statuses: any[] = [...(pod.status?.containerStatuses ?? [])].reverse();
    for (const s of statuses) {
      if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
      else if (s.state?.terminated?.reason) reason = s.state.terminated.reason;
      else if (s.state?.terminated) reason = s.state.terminated.signal ? `Signal:${s.state.terminated.signal}` : `ExitCode:${s.state.terminated.exitCode}`;
      else if (s.ready && s.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  if (pod.metadata?.deletionTimestamp) reason = pod.status?.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function podReady(pod: Pod): string {
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter(isSidecar).map((c) => c.name));
  const total = (pod.spec?.containers ?? []).length + sidecars.size;
  const ready =
    (pod.status?.containerStatuses ?? []).filter((s) => s.ready).length +
    (pod.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name) && s.ready).length;
  return `${ready}/${total}`;
}

/** `7 (2m ago)`: restarts of app containers and native sidecars, with the last one's age. */
function podRestarts(pod: Pod, now: Date): string {
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter(isSidecar).map((c) => c.name));
  const statuses: ContainerStatus[] = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name)),
  ];
  const restarts = statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0);
  const last = Math.max(0, ...statuses.map((s) => Date.parse(s.lastState?.terminated?.finishedAt ?? '') || 0));
  return restarts > 0 && last > 0 ? `${restarts} (${humanDuration(now.getTime() - last)} ago)` : String(restarts);
}

function nodeStatus(node: any): string {
  const ready = (node.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
  let s = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  if (node.spec?.unschedulable) s += ',SchedulingDisabled';
  return s;
}

function nodeRoles(node: any): string {
  const roles = Object.keys(node.metadata?.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .filter((r) => r !== '');
  return roles.length ? roles.sort().join(',') : '<none>';
}

function servicePorts(svc: any): string {
  const ports: any[] = svc.spec?.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

const COLUMNS: Record<string, Column[]> = {
  '/Pod': [
    nameCol,
    col('Ready', podReady, { description: 'The aggregate readiness state of this pod for accepting traffic.' }),
    col('Status', podStatus, { description: 'The aggregate status of the containers in this pod.' }),
    col('Restarts', podRestarts, { type: 'string', description: 'The number of times the containers in this pod have been restarted.' }),
    ageCol,
    col('IP', (o) => o.status?.podIP ?? '<none>', { priority: 1 }),
    col('Node', (o) => o.spec?.nodeName ?? '<none>', { priority: 1 }),
    col('Nominated Node', (o) => o.status?.nominatedNodeName ?? '<none>', { priority: 1 }),
    col('Readiness Gates', (o) => (o.spec?.readinessGates?.length ? `0/${o.spec.readinessGates.length}` : '<none>'), { priority: 1 }),
  ],
  '/Namespace': [nameCol, col('Status', (o) => o.status?.phase ?? 'Active'), ageCol],
  '/Node': [nameCol, col('Status', nodeStatus), col('Roles', nodeRoles), ageCol, col('Version', (o) => o.status?.nodeInfo?.kubeletVersion ?? '')],
  '/Service': [
    nameCol,
    col('Type', (o) => o.spec?.type ?? 'ClusterIP'),
    col('Cluster-IP', (o) => o.spec?.clusterIP ?? '<none>'),
    col('External-IP', (o) => (o.status?.loadBalancer?.ingress ?? []).map((i: any) => i.ip ?? i.hostname).join(',') || '<none>'),
    col('Port(s)', servicePorts),
    ageCol,
  ],
  '/ConfigMap': [nameCol, col('Data', (o) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length, { type: 'integer' }), ageCol],
  '/Secret': [nameCol, col('Type', (o) => o.type ?? 'Opaque'), col('Data', (o) => Object.keys(o.data ?? {}).length, { type: 'integer' }), ageCol],
  'apps/Deployment': [
    nameCol,
    col('Ready', (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`),
    col('Up-to-date', (o) => o.status?.updatedReplicas ?? 0, { type: 'integer' }),
    col('Available', (o) => o.status?.availableReplicas ?? 0, { type: 'integer' }),
    ageCol,
  ],
  'apps/DaemonSet': [
    nameCol,
    col('Desired', (o) => o.status?.desiredNumberScheduled ?? 0, { type: 'integer' }),
    col('Current', (o) => o.status?.currentNumberScheduled ?? 0, { type: 'integer' }),
    col('Ready', (o) => o.status?.numberReady ?? 0, { type: 'integer' }),
    col('Up-to-date', (o) => o.status?.updatedNumberScheduled ?? 0, { type: 'integer' }),
    col('Available', (o) => o.status?.numberAvailable ?? 0, { type: 'integer' }),
    ageCol,
  ],
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A meta.k8s.io Table of `objects`. */
export function renderTable(
  res: ServedResource,
  objects: StoredObject[],
  opts: { apiVersion: string; resourceVersion: string; includeObject: IncludeObject; now: Date; cont?: string },
): unknown {
  const columns = COLUMNS[`${res.group}/${res.kind}`] ?? [nameCol, ageCol];
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: { resourceVersion: opts.resourceVersion, ...(opts.cont ? { continue: opts.cont } : {}) },
    columnDefinitions: columns.map(({ cell: _cell, ...c }) => c),
    rows: objects.map((o) => ({
      cells: columns.map((c) => c.cell(o, opts.now)),
      object:
        opts.includeObject === 'None'
          ? undefined
          : opts.includeObject === 'Object'
            ? o
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
