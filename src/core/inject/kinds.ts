import type { YAMLMap } from 'yaml';
import type { DocEditor } from '../manifest/editor.js';
export { LIST_KIND } from '../manifest/objectNodes.js';

/*
 * What inject does with each kind (spec §3.2), as data: where the pod template is, and whether the
 * pod gets a `linkerd.io/proxy-<kind>` owner label. Kinds are matched case-insensitively.
 */

export interface WorkloadKind {
  /** Path from the object to its pod template (empty: the object is the pod). */
  readonly podTemplate: readonly string[];
  /** Whether `--manual` labels the pod `linkerd.io/proxy-<kind>: <name>`. */
  readonly ownerLabel: boolean;
}

const TEMPLATE = ['spec', 'template'] as const;

export const WORKLOAD_KINDS: Readonly<Record<string, WorkloadKind>> = {
  deployment: { podTemplate: TEMPLATE, ownerLabel: true },
  replicaset: { podTemplate: TEMPLATE, ownerLabel: true },
  replicationcontroller: { podTemplate: TEMPLATE, ownerLabel: true },
  statefulset: { podTemplate: TEMPLATE, ownerLabel: true },
  daemonset: { podTemplate: TEMPLATE, ownerLabel: true },
  job: { podTemplate: TEMPLATE, ownerLabel: true },
  cronjob: { podTemplate: ['spec', 'jobTemplate', 'spec', 'template'], ownerLabel: true },
  // The CLI has no owner to look up for a bare pod.
  pod: { podTemplate: [], ownerLabel: false },
};

/** Kinds whose own metadata is annotated rather than a pod template. */
export const NAMESPACE_KIND = 'namespace';
export const SERVICE_KIND = 'service';

export function workloadKind(kind: string): WorkloadKind | undefined {
  return Object.prototype.hasOwnProperty.call(WORKLOAD_KINDS, kind) ? WORKLOAD_KINDS[kind] : undefined;
}

/** The pod template map of a workload object, or undefined when it has none. */
export function podTemplateOf(ed: DocEditor, obj: YAMLMap, kind: WorkloadKind): YAMLMap | undefined {
  let node: YAMLMap | undefined = obj;
  for (const key of kind.podTemplate) {
    node = ed.getMap(node, key);
    if (!node) return undefined;
  }
  return node;
}

/** Lower-cased kind and name as the report prints them (`generateName` for a nameless pod). */
export function identityOf(ed: DocEditor, obj: YAMLMap): { kind: string; name: string } {
  const kind = (ed.getString(obj, 'kind') ?? '').toLowerCase();
  const meta = ed.getMap(obj, 'metadata');
  const name = (meta && (ed.getString(meta, 'name') || ed.getString(meta, 'generateName'))) || '';
  return { kind, name };
}
