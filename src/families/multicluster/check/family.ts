import type { CheckContext } from '../../../core/check/context.js';
import { extensionNamespaces } from '../../../core/check/facts.js';
import { resourceAuthz } from '../../../core/check/resourceAuthz.js';
import type { ApiResource } from '../../../core/kube/kubeClient.js';
import { KubeError, isKubeError } from '../../../core/kube/kubeError.js';
import type { CheckFamily } from '../../../core/check/family.js';
import { type CheckDefinition, type CheckOutcome, type Severity, fail, pass, skip } from '../../../core/check/types.js';
import { checkPodsRunning, proxiesMatchCli, proxiesUpToDate, staleTrustBundles } from '../../../core/check/checks/dataPlane.js';
import { CONTROL_PLANE_NS_LABEL } from '../../../core/mesh/names.js';
import { LINK_RESOURCE, type StoredLink, isGatewayless, storedLink } from '../linkResource.js';
import { anchorsOverlap, remoteAccess, sharedAnchors } from './remoteChecks.js';
import { leaderSamples } from '../gateways/gateways.js';

/*
 * The `linkerd-multicluster` category (code 60), with the real CLI's descriptions, hint anchors
 * and messages, run by `linkerd multicluster check` and by `linkerd check` when a namespace is
 * labelled `linkerd.io/extension: multicluster`. Gateway-less links (made with
 * `link-gen --gateway=false`) have no gateway and no probe: the gateway checks leave them out.
 */

const CATEGORY = 'linkerd-multicluster';
/** This CLI's own category (not the real CLI's): run by `linkerd check`, not by `multicluster check`. */
const IDENTITY_CATEGORY = 'linkerd-multicluster-identity';

interface Spec {
  n: number;
  description: string;
  anchor: string;
  severity: Severity;
  retryable?: boolean;
  run: (ctx: CheckContext) => Promise<CheckOutcome>;
}

const define = (s: Spec, category = CATEGORY, code = 60): CheckDefinition => ({
  id: `L5D${code}${String(s.n).padStart(2, '0')}`,
  category,
  description: s.description,
  severity: s.severity,
  hintAnchor: s.anchor,
  retryable: s.retryable ?? false,
  ...(s.retryable ? { surfaceErrorOnRetry: true } : {}),
  run: s.run,
});

const links = (ctx: CheckContext): Promise<StoredLink[]> => ctx.fact('multicluster.links', async () => (await ctx.list(LINK_RESOURCE)).map(storedLink));

/** Runs `per` for every link; skipped (not printed) when there are none, as the real checks are. */
async function perLink(ctx: CheckContext, per: (l: StoredLink) => Promise<string[]>): Promise<CheckOutcome> {
  const all = await links(ctx);
  if (all.length === 0) return skip('no links');
  const problems = (await Promise.all(all.map(per))).flat();
  return problems.length === 0 ? pass() : fail(problems.join('\n'));
}

const CONTROLLER_SELECTOR = (c: string) => `component in (service-mirror, controller),mirror.linkerd.io/cluster-name=${c}`;

const controllers = (ctx: CheckContext, c: string) => ctx.list('deployments', { labelSelector: CONTROLLER_SELECTOR(c) });

const MIRRORED = 'mirror.linkerd.io/mirrored-service';
const MIRRORED_GATEWAY = 'mirror.linkerd.io/mirrored-gateway';
const CLUSTER_NAME = 'mirror.linkerd.io/cluster-name';

const hasEndpoints = async (ctx: CheckContext, name: string, ns: string): Promise<boolean> =>
  ((await ctx.find('endpoints', name, ns))?.subsets ?? []).some((s) => (s.addresses ?? []).length > 0);

/** Namespaces holding Links, each once (the real checks repeat them per Link). */
const linkNamespaces = async (ctx: CheckContext): Promise<string[]> => [...new Set((await links(ctx)).map((l) => l.namespace))];

/** Every pod of the Links' namespaces (the real checks' GetPodsByNamespace). */
async function linkNamespacePods(ctx: CheckContext) {
  return (await Promise.all((await linkNamespaces(ctx)).map((ns) => ctx.list('pods', { namespace: ns })))).flat();
}

const RBAC_SELECTOR = (c: string) => `component in (service-mirror, controller),${CLUSTER_NAME}=${c}`;

/** The objects a Link's controller needs: the legacy (`link`) name first, then the `controllers:` one. */
const RBAC_KINDS = [
  {
    kinds: 'ServiceAccounts',
    resource: 'serviceaccounts',
    namespaced: true,
    legacy: (c: string) => `linkerd-service-mirror-${c}`,
    current: (c: string) => `controller-${c}`,
  },
  {
    kinds: 'ClusterRoles',
    resource: 'clusterroles',
    namespaced: false,
    legacy: (c: string) => `linkerd-service-mirror-access-local-resources-${c}`,
    current: () => 'linkerd-multicluster-controller-access-local-resources',
    // The `controllers:` ClusterRole is shared by every Link: it has no cluster-name label.
    currentSelector: () => 'component=controller',
  },
  {
    kinds: 'ClusterRoleBindings',
    resource: 'clusterrolebindings',
    namespaced: false,
    legacy: (c: string) => `linkerd-service-mirror-access-local-resources-${c}`,
    current: (c: string) => `linkerd-multicluster-controller-access-local-resources-${c}`,
  },
  {
    kinds: 'Roles',
    resource: 'roles',
    namespaced: true,
    legacy: (c: string) => `linkerd-service-mirror-read-remote-creds-${c}`,
    current: (c: string) => `controller-read-remote-creds-${c}`,
  },
  {
    kinds: 'RoleBindings',
    resource: 'rolebindings',
    namespaced: true,
    legacy: (c: string) => `linkerd-service-mirror-read-remote-creds-${c}`,
    current: (c: string) => `controller-read-remote-creds-${c}`,
  },
] as const;

async function controllerRbac(ctx: CheckContext, l: StoredLink): Promise<string[]> {
  const c = l.targetClusterName;
  const problems: string[] = [];
  for (const k of RBAC_KINDS) {
    const missingOne = async (name: string, labelSelector: string): Promise<string | undefined> => {
      const found = await ctx.list(k.resource, { namespace: k.namespaced ? l.namespace : undefined, labelSelector });
      return found.some((o) => o.metadata?.name === name) ? undefined : `missing ${k.kinds}: ${name}`;
    };
    const legacy = await missingOne(k.legacy(c), RBAC_SELECTOR(c));
    if (legacy === undefined) continue;
    const current = await missingOne(k.current(c), 'currentSelector' in k ? k.currentSelector() : RBAC_SELECTOR(c));
    if (current !== undefined) problems.push(legacy, current);
  }
  return problems;
}

/**
 * Whether the API serves Links and this user may list them everywhere: discovery of the Link's
 * group version must name kind Link, then a SelfSubjectAccessReview of `list links` cluster-wide.
 * A discovery failure is the problem as the API reported it.
 */
async function linkAccess(ctx: CheckContext): Promise<string | undefined> {
  const client = await ctx.client();
  const { group, version, plural, kind } = LINK_RESOURCE;
  let served: ApiResource[];
  try {
    served = await client.groupVersionResources(group, version);
  } catch (e) {
    if (isKubeError(e, 'notfound')) return DISCOVERY_NOT_FOUND;
    if (e instanceof KubeError) return e.message;
    throw e;
  }
  if (!served.some((r) => r.kind === kind)) return 'Link CRD not found';
  return resourceAuthz(client, { verb: 'list', group, version, resource: plural });
}

/** client-go's words for a group version the API server does not serve. */
const DISCOVERY_NOT_FOUND = 'the server could not find the requested resource';

const CHECKS: readonly CheckDefinition[] = [
  define({
    n: 1,
    description: 'Link CRD exists',
    anchor: 'l5d-multicluster-link-crd-exists',
    severity: 'fatal',
    run: async (ctx) => {
      const problem = await linkAccess(ctx);
      return problem === undefined ? pass() : fail(`multicluster.linkerd.io/Link CRD is missing: ${problem}`);
    },
  }),
  define({
    n: 2,
    description: 'Link resources are valid',
    anchor: 'l5d-multicluster-links-are-valid',
    severity: 'fatal',
    run: async (ctx) => {
      const all = await links(ctx);
      return all.length === 0 ? skip('no links detected') : pass(all.map((l) => `\t* ${l.targetClusterName}`).join('\n'));
    },
  }),
  define({
    n: 3,
    description: 'Link and CLI versions match',
    anchor: 'l5d-multicluster-links-version',
    severity: 'warning',
    run: (ctx) => {
      const cli = ctx.options.cliVersion;
      return perLink(ctx, (l) => {
        if (l.createdBy === undefined || !l.createdBy.startsWith('linkerd/cli '))
          return Promise.resolve([`        * ${l.targetClusterName}: unable to determine version`]);
        const v = l.createdBy.slice('linkerd/cli '.length);
        return Promise.resolve(v === cli ? [] : [`        * ${l.targetClusterName}: CLI version is ${cli} but Link version is ${v}`]);
      });
    },
  }),
  define({
    n: 4,
    description: 'remote cluster access credentials are valid',
    anchor: 'l5d-smc-target-clusters-access',
    severity: 'error',
    run: async (ctx) => remoteAccess(ctx, await links(ctx)),
  }),
  define({
    n: 5,
    description: 'clusters share trust anchors',
    anchor: 'l5d-multicluster-clusters-share-anchors',
    severity: 'error',
    run: async (ctx) => sharedAnchors(ctx, await links(ctx)),
  }),
  define({
    n: 6,
    description: 'service mirror controller has required permissions',
    anchor: 'l5d-multicluster-source-rbac-correct',
    severity: 'error',
    run: async (ctx) => {
      const all = await links(ctx);
      if (all.length === 0) return skip('no links');
      const problems = (await Promise.all(all.map((l) => controllerRbac(ctx, l)))).flat();
      return problems.length > 0 ? fail(problems.join('\n')) : pass(all.map((l) => `\t* ${l.targetClusterName}`).join('\n'));
    },
  }),
  define({
    n: 7,
    description: 'service mirror controllers are running',
    anchor: 'l5d-multicluster-service-mirror-running',
    severity: 'error',
    retryable: true,
    run: (ctx) =>
      perLink(ctx, async (l) => {
        const found = await controllers(ctx, l.targetClusterName);
        if (found.length > 1) return [`* too many service mirror controller deployments for Link ${l.targetClusterName}`];
        const [d] = found;
        if (!d) return [`* no service mirror controller deployment for Link ${l.targetClusterName}`];
        return (d.status?.availableReplicas ?? 0) < 1
          ? [`* service mirror controller is not available: ${d.metadata?.namespace ?? ''}/${d.metadata?.name ?? ''}`]
          : [];
      }),
  }),
  define({
    n: 8,
    description: 'extension is managing controllers',
    anchor: 'l5d-multicluster-managed-controllers',
    severity: 'warning',
    run: (ctx) =>
      perLink(ctx, async (l) =>
        (await controllers(ctx, l.targetClusterName)).some((d) => d.metadata?.labels?.component === 'service-mirror')
          ? [`* using legacy service mirror controller for Link: ${l.targetClusterName}`]
          : [],
      ),
  }),
  define({
    n: 9,
    description: 'probe services able to communicate with all gateway mirrors',
    anchor: 'l5d-multicluster-gateways-endpoints',
    severity: 'error',
    run: async (ctx) => {
      const withGateway = (await links(ctx)).filter((l) => !isGatewayless(l));
      if (withGateway.length === 0) return skip('no links with a gateway');
      const client = await ctx.client();
      // One --timeout for the whole check (the runner's own bound), so the scrapes get what is left of it.
      const deadline = Date.now() + ctx.options.timeoutMs;
      // The run's own lookup of the extension's namespace (found by its label); skipped without it, as the real check.
      const extensionNs = (await extensionNamespaces(ctx)).find((e) => e.extension === 'multicluster')?.namespace;
      if (extensionNs === undefined) return skip('the multicluster extension namespace was not found');
      const problems: string[] = [];
      for (const l of withGateway) {
        const c = l.targetClusterName;
        const probes = await ctx.list('services', { labelSelector: `${MIRRORED_GATEWAY},${CLUSTER_NAME}=${c}` });
        const [probe] = probes;
        if (probes.length !== 1 || !probe) {
          problems.push(`wrong number (${probes.length}) of probe gateways for target cluster ${c}`);
          continue;
        }
        const name = probe.metadata?.name ?? '';
        const ns = probe.metadata?.namespace ?? '';
        if (!(await hasEndpoints(ctx, name, ns))) {
          problems.push(`${name}.${ns} mirrored from cluster [${c}] has no endpoints`);
          continue;
        }
        // The leading service mirror's own view of the gateway: its gateway_alive, scraped within --timeout.
        const samples = await leaderSamples(client, extensionNs, c, deadline);
        if ('problem' in samples) problems.push(samples.problem);
        else if (samples.some((x) => x.name === 'gateway_alive' && x.value !== 1)) problems.push(`liveness checks failed for ${c}`);
      }
      return problems.length === 0 ? pass() : fail(problems.join('\n    '));
    },
  }),
  define({
    n: 10,
    description: 'all mirror services have endpoints',
    anchor: 'l5d-multicluster-services-endpoints',
    severity: 'error',
    run: async (ctx) => {
      const services = await ctx.list('services', { labelSelector: `${MIRRORED},!${MIRRORED_GATEWAY},!multicluster.linkerd.io/remote-discovery` });
      // Remote-discovery and federated services have no local endpoints by design.
      const local = services.filter((s) => {
        const a = s.metadata?.annotations ?? {};
        return !('multicluster.linkerd.io/remote-discovery' in a) && !('multicluster.linkerd.io/local-discovery' in a);
      });
      if (local.length === 0) return skip('no mirror services');
      const empty: string[] = [];
      for (const s of local) {
        const name = s.metadata?.name ?? '';
        const ns = s.metadata?.namespace ?? '';
        if (!(await hasEndpoints(ctx, name, ns))) empty.push(`    ${name}.${ns} mirrored from cluster [${s.metadata?.labels?.[CLUSTER_NAME] ?? ''}]`);
      }
      return empty.length === 0 ? pass() : fail(`Some mirror services do not have endpoints:\n${empty.join('\n')}`);
    },
  }),
  define({
    n: 11,
    description: 'all mirror services are part of a Link',
    anchor: 'l5d-multicluster-orphaned-services',
    severity: 'warning',
    run: async (ctx) => {
      const services = await ctx.list('services', { labelSelector: `${MIRRORED},!${MIRRORED_GATEWAY},${CLUSTER_NAME}` });
      const linked = new Set((await links(ctx)).map((l) => l.targetClusterName));
      const orphans = services
        .filter((s) => !linked.has(s.metadata?.labels?.[CLUSTER_NAME] ?? ''))
        .map((s) => `    mirror service ${s.metadata?.name ?? ''}.${s.metadata?.namespace ?? ''} is not part of any Link`);
      return orphans.length === 0 ? pass() : fail(orphans.join('\n'));
    },
  }),
  define({
    n: 12,
    description: 'multicluster extension proxies are healthy',
    anchor: 'l5d-multicluster-proxy-healthy',
    severity: 'warning',
    retryable: true,
    run: async (ctx) => {
      for (const ns of await linkNamespaces(ctx)) {
        const running = checkPodsRunning(await ctx.list('pods', { namespace: ns, labelSelector: CONTROL_PLANE_NS_LABEL }), ns);
        if (running.kind !== 'pass') return running;
        const bundles = await staleTrustBundles(ctx, ns);
        if (bundles.kind !== 'pass') return bundles;
      }
      return pass();
    },
  }),
  define({
    n: 13,
    description: 'multicluster extension proxies are up-to-date',
    anchor: 'l5d-multicluster-proxy-cp-version',
    severity: 'warning',
    run: async (ctx) => proxiesUpToDate(ctx, await linkNamespacePods(ctx)),
  }),
  define({
    n: 14,
    description: 'multicluster extension proxies and cli versions match',
    anchor: 'l5d-multicluster-proxy-cli-version',
    severity: 'warning',
    run: async (ctx) => proxiesMatchCli(ctx, await linkNamespacePods(ctx)),
  }),
];

const IDENTITY_CHECKS: readonly CheckDefinition[] = [
  define(
    {
      n: 1,
      description: 'linked clusters and this one trust a common anchor',
      anchor: 'l5d-multicluster-identity-overlap',
      severity: 'error',
      run: async (ctx) => anchorsOverlap(ctx, await links(ctx)),
    },
    IDENTITY_CATEGORY,
    61,
  ),
];

export const multiclusterCheckFamily: CheckFamily = {
  name: 'multicluster',
  codes: { first: 60, last: 69 },
  categories: [
    { id: CATEGORY, code: 60, modes: ['default', 'proxy'], checks: CHECKS },
    { id: IDENTITY_CATEGORY, code: 61, modes: ['default', 'proxy'], checks: IDENTITY_CHECKS },
  ],
};
