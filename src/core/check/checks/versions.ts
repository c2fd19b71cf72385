import { LinkerdConfigError } from '../../kube/linkerdConfig.js';
import type { CheckContext } from '../context.js';
import { linkerdConfigValues } from '../facts.js';
import { latestVersions, lookupLatest } from './latest.js';
import { CONTROL_PLANE_NS_LABEL, LINKERD_CONFIG } from '../../mesh/names.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome, type TerminalState } from '../types.js';
import { checkPodsRunning, proxiesMatchCli, proxiesUpToDate, staleTrustBundles } from './dataPlane.js';

/** `linkerdVersion` as the control plane recorded it (not defaulted to this CLI's), in the real check's words. */
async function controlPlaneVersion(ctx: CheckContext): Promise<string> {
  let values: Record<string, unknown> | undefined;
  try {
    values = await linkerdConfigValues(ctx);
  } catch (e) {
    if (e instanceof LinkerdConfigError) throw new Error(`failed to load values from ${LINKERD_CONFIG}: ${e.reason}`, { cause: e });
    throw e;
  }
  if (!values) throw new Error(`failed to fetch ${LINKERD_CONFIG}: configmaps "${LINKERD_CONFIG}" not found`);
  const v = values.linkerdVersion;
  if (typeof v !== 'string' || v === '') throw new Error(`${LINKERD_CONFIG} does not record the control plane version (linkerdVersion)`);
  return v;
}

async function upToDate(ctx: CheckContext, version: () => Promise<string>): Promise<CheckOutcome> {
  const latest = await latestVersions(ctx);
  if (!latest) return skip('the latest version is unknown');
  const why = latest.mismatch(await version());
  return why ? fail(why) : pass();
}

const ALL_TERMINAL: TerminalState[] = ['unschedulable', 'crash-loop', 'image-pull', 'pod-failed'];

const controlPlaneProxies = (ctx: CheckContext) => ctx.list('pods', { namespace: ctx.options.controlPlaneNamespace, labelSelector: CONTROL_PLANE_NS_LABEL });

export const VERSION_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2101',
    category: 'linkerd-version',
    description: 'can determine the latest version',
    severity: 'warning',
    hintAnchor: 'l5d-version-latest',
    retryable: false,
    async run(ctx) {
      const l = await lookupLatest(ctx);
      if (l.ok) return pass();
      return fail(
        `the latest version could not be determined: ${l.reason}; version comparisons are skipped (use --expected-version to compare against a known release)`,
      );
    },
  },
  {
    id: 'L5D2102',
    category: 'linkerd-version',
    description: 'cli is up-to-date',
    severity: 'warning',
    hintAnchor: 'l5d-version-cli',
    retryable: false,
    run: (ctx) => upToDate(ctx, () => Promise.resolve(ctx.options.cliVersion)),
  },
];

export const CONTROL_PLANE_VERSION_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2201',
    category: 'control-plane-version',
    description: 'can retrieve the control plane version',
    severity: 'fatal',
    hintAnchor: 'l5d-version-control',
    retryable: true,
    async run(ctx) {
      await controlPlaneVersion(ctx);
      return pass();
    },
  },
  {
    id: 'L5D2202',
    category: 'control-plane-version',
    description: 'control plane is up-to-date',
    severity: 'warning',
    hintAnchor: 'l5d-version-control',
    retryable: false,
    run: (ctx) => upToDate(ctx, () => controlPlaneVersion(ctx)),
  },
  {
    id: 'L5D2203',
    category: 'control-plane-version',
    description: 'control plane and cli versions match',
    severity: 'warning',
    hintAnchor: 'l5d-version-control',
    retryable: false,
    async run(ctx) {
      const server = await controlPlaneVersion(ctx);
      const cli = ctx.options.cliVersion;
      return server === cli ? pass() : fail(`control plane running ${server} but cli running ${cli}`);
    },
  },
];

export const CONTROL_PLANE_PROXY_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2301',
    category: 'linkerd-control-plane-proxy',
    description: 'control plane proxies are healthy',
    severity: 'fatal',
    hintAnchor: 'l5d-cp-proxy-healthy',
    retryable: true,
    surfaceErrorOnRetry: true,
    failFastOn: ALL_TERMINAL,
    async run(ctx) {
      const ns = ctx.options.controlPlaneNamespace;
      const running = checkPodsRunning(await controlPlaneProxies(ctx), ns);
      if (running.kind !== 'pass') return running;
      return staleTrustBundles(ctx, ns);
    },
  },
  {
    id: 'L5D2302',
    category: 'linkerd-control-plane-proxy',
    description: 'control plane proxies are up-to-date',
    severity: 'warning',
    hintAnchor: 'l5d-cp-proxy-version',
    retryable: false,
    run: async (ctx) => proxiesUpToDate(ctx, await controlPlaneProxies(ctx)),
  },
  {
    id: 'L5D2303',
    category: 'linkerd-control-plane-proxy',
    description: 'control plane proxies and cli versions match',
    severity: 'warning',
    hintAnchor: 'l5d-cp-proxy-cli-version',
    retryable: false,
    run: async (ctx) => proxiesMatchCli(ctx, await controlPlaneProxies(ctx)),
  },
];
