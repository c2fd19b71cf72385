import { z } from 'zod';
import { KubeError } from './kubeError.js';
import type { KubeObject, ResourceType } from './resources.js';

/*
 * What the CLI reads of the objects the API server sends, checked once where they arrive (get,
 * find, list) so no command meets a Pod whose `containers` is not a list or a Node whose runtime
 * version is a number. Only the fields linkerd-ts reads are checked; everything else passes
 * through untouched. Like Go's decoder, a `null` is an absent field; a wrong type is an
 * error naming the object, as Go's decoding fails the whole read.
 */

/**
 * An optional field: absent or `null` (readers use `?.` and `??`, which treat both alike). Not
 * turned into `undefined` by a transform: that makes validating a large pod list three times slower.
 */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
const str = opt(z.string());
const bool = opt(z.boolean());
const num = opt(z.number());
const strings = opt(z.record(z.string(), z.string()));
const listOf = <T extends z.ZodType>(item: T) => opt(z.array(item));
const loose = z.looseObject;

const metadata = opt(
  loose({
    name: str,
    namespace: str,
    uid: str,
    labels: strings,
    annotations: strings,
    creationTimestamp: str,
    deletionTimestamp: str,
    ownerReferences: listOf(loose({ kind: z.string(), name: z.string(), apiVersion: str, controller: bool })),
  }),
);

const condition = loose({ type: z.string(), status: z.string(), reason: str, message: str, lastTransitionTime: str });

const envVar = loose({ name: z.string(), value: str, valueFrom: opt(loose({})) });
const container = loose({
  name: z.string(),
  image: str,
  env: listOf(envVar),
  args: listOf(z.string()),
  command: listOf(z.string()),
  restartPolicy: str,
  ports: listOf(loose({ containerPort: num, name: str, protocol: str })),
});
const containerStatus = loose({ name: z.string(), ready: bool, restartCount: num, image: str, state: opt(loose({})), lastState: opt(loose({})) });

const podSpec = loose({
  containers: listOf(container),
  initContainers: listOf(container),
  nodeName: str,
  hostNetwork: bool,
  serviceAccountName: str,
});
const podStatus = loose({
  phase: str,
  reason: str,
  podIP: str,
  startTime: str,
  conditions: listOf(condition),
  containerStatuses: listOf(containerStatus),
  initContainerStatuses: listOf(containerStatus),
});

const workloadSpec = opt(loose({ replicas: num, template: opt(loose({ metadata, spec: opt(podSpec) })) }));
const workloadStatus = opt(
  loose({
    replicas: num,
    readyReplicas: num,
    availableReplicas: num,
    updatedReplicas: num,
    numberReady: num,
    desiredNumberScheduled: num,
    conditions: listOf(condition),
  }),
);

const object = (fields: Record<string, z.ZodType> = {}) => loose({ apiVersion: str, kind: str, metadata, ...fields });
const workload = object({ spec: workloadSpec, status: workloadStatus });

/** Schemas by `group/plural`; any other resource is checked for its metadata only. */
const SCHEMAS: Record<string, z.ZodType> = {
  '/pods': object({ spec: opt(podSpec), status: opt(podStatus) }),
  '/nodes': object({
    spec: opt(loose({ podCIDR: str, unschedulable: bool })),
    status: opt(loose({ nodeInfo: opt(loose({ containerRuntimeVersion: str, kubeletVersion: str })), conditions: listOf(condition) })),
  }),
  '/configmaps': object({ data: strings, binaryData: strings }),
  '/secrets': object({ data: strings, type: str }),
  '/services': object({
    spec: opt(loose({ clusterIP: str, type: str, ports: listOf(loose({ port: z.number(), name: str, targetPort: opt(z.union([z.number(), z.string()])) })) })),
  }),
  'apiextensions.k8s.io/customresourcedefinitions': object({
    spec: loose({ group: str, versions: z.array(loose({ name: z.string(), served: bool, storage: bool })) }),
  }),
  'apps/deployments': workload,
  'apps/daemonsets': workload,
  'apps/statefulsets': workload,
  'apps/replicasets': workload,
};
const METADATA_ONLY = object();

const schemaOf = (t: ResourceType): z.ZodType => SCHEMAS[`${t.group}/${t.plural}`] ?? METADATA_ONLY;

/** `spec.containers[0].env[1].value` */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** `Pod emojivoto/web-1`, `ClusterRole linkerd-identity`, or the item's place when it has no name. */
function nameOf(t: ResourceType, obj: unknown, where: string): string {
  const meta = typeof obj === 'object' && obj !== null ? (obj as { metadata?: unknown }).metadata : undefined;
  const field = (k: string) => {
    const v = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[k] : undefined;
    return typeof v === 'string' && v !== '' ? v.slice(0, 253) : undefined;
  };
  const name = field('name');
  const ns = field('namespace');
  if (name === undefined) return `${t.kind} (${where})`;
  return `${t.kind} ${ns === undefined ? '' : `${ns}/`}${name}`;
}

/**
 * The object as the CLI may read it, or a KubeError naming it (kind, namespace/name) and the
 * first field of the wrong shape. `where` places a nameless object (`item 3 of a list`).
 */
export function validateObject(t: ResourceType, obj: unknown, where: string, url: string): KubeObject {
  const r = schemaOf(t).safeParse(obj);
  if (r.success) return r.data as KubeObject;
  const issue = r.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${pathText(issue.path)}: ` : '';
  const message = (issue?.message ?? 'invalid').replace(/^Invalid input: /, '');
  return fail(`${nameOf(t, obj, where)} from the API server is not a valid ${t.kind}: ${field}${message}`, url);
}

function fail(message: string, url: string): never {
  throw new KubeError('server', message, { method: 'GET', url });
}

const listSchema = z.looseObject({
  items: opt(z.array(z.unknown())),
  metadata: opt(z.looseObject({ continue: str })),
});

/** A LIST answer's items and continue token, or a KubeError naming the list. */
export function validateListPage(t: ResourceType, page: unknown, url: string): { items: unknown[]; continueToken?: string } {
  const r = listSchema.safeParse(page);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue && issue.path.length > 0 ? `${pathText(issue.path)}: ` : '';
    return fail(`the API server's list of ${t.kind} objects is not valid: ${field}${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}`, url);
  }
  return { items: r.data.items ?? [], continueToken: r.data.metadata?.continue || undefined };
}

/** The other documents the CLI reads: `/version`, discovery, SelfSubjectAccessReview answers. */
export const DOCUMENT_SCHEMAS = {
  version: loose({ major: str, minor: str, gitVersion: str, platform: str }),
  coreVersions: loose({ versions: z.array(z.string()) }),
  groups: loose({ groups: z.array(loose({ name: z.string(), versions: z.array(loose({ groupVersion: z.string(), version: z.string() })) })) }),
  resources: loose({
    resources: z.array(loose({ name: z.string(), kind: z.string(), namespaced: z.boolean(), verbs: listOf(z.string()), shortNames: listOf(z.string()) })),
  }),
  accessReview: loose({ status: opt(loose({ allowed: bool, denied: bool, reason: str, evaluationError: str })) }),
};

/** A document of one of DOCUMENT_SCHEMAS, or a KubeError naming `what` and the first bad field. */
export function validateDocument<S extends z.ZodType>(schema: S, value: unknown, what: string, url: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${pathText(issue.path)}: ` : '';
  return fail(`the API server's ${what} is not valid: ${field}${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}`, url);
}
