import { isKubeError } from '../../kube/kubeError.js';
import { BUILTIN_RESOURCES, type KubeObject } from '../../kube/resources.js';
import type { CheckContext } from '../context.js';
import { resourceAuthz } from '../resourceAuthz.js';
import { coreOptions } from '../coreOptions.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome } from '../types.js';

/** A resource type the install manifest creates, as RBAC names it. */
export interface ManifestResource {
  group: string;
  /** Plural resource name (`deployments`). */
  resource: string;
  kind: string;
}

export interface InstallPlan {
  /** Objects without a namespace, in manifest order: dry-run created one by one. */
  clusterScoped: KubeObject[];
  /** Distinct resource types created in the control-plane namespace, in order of first appearance. */
  namespaced: ManifestResource[];
}

const BY_KIND = new Map(Object.values(BUILTIN_RESOURCES).map((t) => [`${t.group}/${t.kind}`, t.plural]));

/** client-go's UnsafeGuessKindToResource, preferring the known plural. */
function pluralOf(group: string, kind: string): string {
  const known = BY_KIND.get(`${group}/${kind}`);
  if (known) return known;
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? 'v1';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

/** What `--pre` verifies, derived from the objects `linkerd install` renders (not from a hand-kept list). */
export function planInstall(objects: KubeObject[]): InstallPlan {
  const clusterScoped: KubeObject[] = [];
  const namespaced = new Map<string, ManifestResource>();
  for (const o of objects) {
    if (!o.kind) continue;
    if (!o.metadata?.namespace) {
      clusterScoped.push(o);
      continue;
    }
    const group = groupOf(o.apiVersion);
    const resource = pluralOf(group, o.kind);
    const key = `${group}/${resource}`;
    if (!namespaced.has(key)) namespaced.set(key, { group, resource, kind: o.kind });
  }
  return { clusterScoped, namespaced: [...namespaced.values()] };
}

function installPlan(ctx: CheckContext): Promise<InstallPlan> {
  return ctx.shared('install-plan', async () => {
    const render = coreOptions(ctx.options).installObjects;
    if (!render) throw new Error('error rendering install manifest: no install renderer is available');
    try {
      return planInstall(await render());
    } catch (e) {
      throw new Error(`error rendering install manifest: ${(e as Error).message}`, { cause: e });
    }
  });
}

/** linkerd's ResourceAuthz in the control plane's namespace. */
async function canI(ctx: CheckContext, verb: string, group: string, resource: string): Promise<string | undefined> {
  return resourceAuthz(await ctx.client(), { verb, group, resource, namespace: ctx.options.controlPlaneNamespace });
}

/** One of the real CLI's "can create <Kind>s" checks, run only when the manifest creates that resource. */
function canCreate(id: string, kindPlural: string, group: string, resource: string): CheckDefinition {
  return {
    id,
    category: 'pre-kubernetes-setup',
    description: `can create ${kindPlural}`,
    severity: 'error',
    hintAnchor: 'pre-k8s',
    retryable: false,
    async run(ctx) {
      const plan = await installPlan(ctx);
      if (!plan.namespaced.some((r) => r.group === group && r.resource === resource)) {
        return skip(`linkerd install does not create ${kindPlural}`);
      }
      const denied = await canI(ctx, 'create', group, resource);
      return denied ? fail(denied) : pass();
    },
  };
}

/** The resource types the real CLI has a check of its own for; the rest are covered by L5D1312. */
const NAMED: Array<[id: string, kindPlural: string, group: string, resource: string]> = [
  ['L5D1303', 'ServiceAccounts', '', 'serviceaccounts'],
  ['L5D1304', 'Services', '', 'services'],
  ['L5D1305', 'Deployments', 'apps', 'deployments'],
  ['L5D1306', 'CronJobs', 'batch', 'cronjobs'],
  ['L5D1307', 'ConfigMaps', '', 'configmaps'],
  ['L5D1308', 'Secrets', '', 'secrets'],
];

/** linkerd's AllowedClockSkew: the node heartbeat interval plus the TLS clock-skew allowance. */
const ALLOWED_CLOCK_SKEW_MS = 5 * 60_000 + 10_000;

async function dryRunClusterScoped(ctx: CheckContext): Promise<CheckOutcome> {
  const plan = await installPlan(ctx);
  const client = await ctx.client();
  const problems = await Promise.all(
    plan.clusterScoped.map(async (o) => {
      try {
        await client.dryRunCreate(o);
        return undefined;
      } catch (e) {
        // Transport failures are not answers about this object: the check fails as a whole.
        if (isKubeError(e, 'unreachable') || isKubeError(e, 'tls') || isKubeError(e, 'timeout')) throw e;
        return `cannot create ${o.kind}/${o.metadata?.name ?? ''}: ${(e as Error).message}`;
      }
    }),
  );
  const errors = problems.filter((p) => p !== undefined);
  return errors.length > 0 ? fail(errors.join('\n    ')) : pass();
}

export const PRE_INSTALL_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1301',
    category: 'pre-kubernetes-setup',
    description: 'control plane namespace does not already exist',
    severity: 'error',
    hintAnchor: 'pre-ns',
    retryable: false,
    async run(ctx) {
      const ns = ctx.options.controlPlaneNamespace;
      return (await ctx.find('namespaces', ns)) ? fail(`The "${ns}" namespace already exists`) : pass();
    },
  },
  {
    id: 'L5D1302',
    category: 'pre-kubernetes-setup',
    description: 'can create non-namespaced resources',
    severity: 'error',
    hintAnchor: 'pre-k8s-cluster-k8s',
    retryable: false,
    run: dryRunClusterScoped,
  },
  ...NAMED.map(([id, kindPlural, group, resource]) => canCreate(id, kindPlural, group, resource)),
  {
    id: 'L5D1309',
    category: 'pre-kubernetes-setup',
    description: 'can read Secrets',
    severity: 'error',
    hintAnchor: 'pre-k8s',
    retryable: false,
    async run(ctx) {
      const denied = await canI(ctx, 'get', '', 'secrets');
      return denied ? fail(denied) : pass();
    },
  },
  {
    id: 'L5D1310',
    category: 'pre-kubernetes-setup',
    description: 'can read extension-apiserver-authentication configmap',
    severity: 'error',
    hintAnchor: 'pre-k8s',
    retryable: false,
    async run(ctx) {
      const cm = await ctx.find('configmaps', 'extension-apiserver-authentication', 'kube-system');
      if (!cm) return fail('configmaps "extension-apiserver-authentication" not found');
      if (!cm.data?.['requestheader-client-ca-file']) return fail('--requestheader-client-ca-file is not configured');
      return pass();
    },
  },
  {
    id: 'L5D1311',
    category: 'pre-kubernetes-setup',
    description: 'no clock skew detected',
    severity: 'warning',
    hintAnchor: 'pre-k8s-clock-skew',
    retryable: false,
    async run(ctx) {
      const now = ctx.now().getTime();
      const skewed = (await ctx.list('nodes'))
        .filter((node) =>
          (node.status?.conditions ?? []).some((c) => {
            if (c.type !== 'Ready' || c.status !== 'True' || !c.lastHeartbeatTime) return false;
            return Math.abs(now - Date.parse(c.lastHeartbeatTime)) > ALLOWED_CLOCK_SKEW_MS;
          }),
        )
        .map((node) => node.metadata?.name ?? '');
      return skewed.length > 0 ? fail(`clock skew detected for node(s): ${skewed.join(', ')}`) : pass();
    },
  },
  {
    id: 'L5D1312',
    category: 'pre-kubernetes-setup',
    description: 'can create the other namespaced resources of the install manifest',
    severity: 'error',
    hintAnchor: 'pre-k8s',
    retryable: false,
    async run(ctx) {
      const plan = await installPlan(ctx);
      const rest = plan.namespaced.filter((r) => !NAMED.some(([, , group, resource]) => r.group === group && r.resource === resource));
      if (rest.length === 0) return skip('the install manifest creates no other namespaced resources');
      const denied = (await Promise.all(rest.map((r) => canI(ctx, 'create', r.group, r.resource)))).filter((d) => d !== undefined);
      return denied.length > 0 ? fail(denied.join('\n    ')) : pass();
    },
  },
];
