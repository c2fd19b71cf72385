import type { CheckContext } from '../context.js';
import { coreOptions } from '../coreOptions.js';
import { cniEnabled } from '../facts.js';
import { CNI_CONFIG_MAP, CNI_NAME } from '../../mesh/names.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome } from '../types.js';

// The names `linkerd install-cni` renders (src/families/cni), read from the one place both use.
const CNI = CNI_NAME;
const NOT_ENABLED = 'skipping check because CNI is not enabled';

/** A CNI check: skipped (not reported) unless CNI is enabled, as the real category does. */
function cniCheck(id: string, description: string, hintAnchor: string, run: (ctx: CheckContext) => Promise<CheckOutcome>, retryable = false): CheckDefinition {
  return {
    id,
    category: 'linkerd-cni-plugin',
    description,
    severity: 'fatal',
    hintAnchor,
    retryable,
    surfaceErrorOnRetry: retryable,
    async run(ctx) {
      if (!(await cniEnabled(ctx))) return skip(NOT_ENABLED);
      return run(ctx);
    },
  };
}

export const CNI_CHECKS: CheckDefinition[] = [
  cniCheck('L5D1701', 'cni plugin ConfigMap exists', 'cni-plugin-cm-exists', async (ctx) =>
    (await ctx.find('configmaps', CNI_CONFIG_MAP, coreOptions(ctx.options).cniNamespace)) ? pass() : fail(`configmaps "${CNI_CONFIG_MAP}" not found`),
  ),
  cniCheck('L5D1702', 'cni plugin ClusterRole exists', 'cni-plugin-cr-exists', async (ctx) =>
    (await ctx.find('clusterroles', CNI)) ? pass() : fail(`missing ClusterRole: ${CNI}`),
  ),
  cniCheck('L5D1703', 'cni plugin ClusterRoleBinding exists', 'cni-plugin-crb-exists', async (ctx) =>
    (await ctx.find('clusterrolebindings', CNI)) ? pass() : fail(`missing ClusterRoleBinding: ${CNI}`),
  ),
  cniCheck('L5D1704', 'cni plugin ServiceAccount exists', 'cni-plugin-sa-exists', async (ctx) =>
    (await ctx.find('serviceaccounts', CNI, coreOptions(ctx.options).cniNamespace)) ? pass() : fail(`missing ServiceAccount: ${CNI}`),
  ),
  cniCheck('L5D1705', 'cni plugin DaemonSet exists', 'cni-plugin-ds-exists', async (ctx) =>
    (await ctx.find('daemonsets', CNI, coreOptions(ctx.options).cniNamespace)) ? pass() : fail(`missing DaemonSet: ${CNI}`),
  ),
  cniCheck(
    'L5D1706',
    'cni plugin pod is running on all nodes',
    'cni-plugin-ready',
    async (ctx) => {
      const ds = await ctx.find('daemonsets', CNI, coreOptions(ctx.options).cniNamespace);
      if (!ds) return fail(`missing DaemonSet: ${CNI}`);
      const scheduled = ds.status?.desiredNumberScheduled ?? 0;
      const ready = ds.status?.numberReady ?? 0;
      return scheduled === ready ? pass() : fail(`number ready: ${ready}, number scheduled: ${scheduled}`);
    },
    true,
  ),
];
