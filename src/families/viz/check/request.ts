import { UserError } from '../../../core/errors.js';
import { DEFAULT_TIMEOUT_MS, DEFAULT_VERSIONCHECK_TIMEOUT_MS, VERSIONCHECK_URL, type CheckRequest } from '../../../core/check/index.js';
import type { KubeSelection } from '../../../core/kube/kubeconfig.js';
import { clientVersion } from '../../../core/version.js';
import { VIZ_CHECK_FAMILY } from './family.js';

/* `linkerd viz check` as a check request: viz's family alone, no core categories, no extensions. */

export const VIZ_CHECK_OUTPUTS = ['table', 'json', 'short'] as const;
export type VizCheckOutput = (typeof VIZ_CHECK_OUTPUTS)[number];

export function vizCheckOutput(output: string): VizCheckOutput {
  if ((VIZ_CHECK_OUTPUTS as readonly string[]).includes(output)) return output as VizCheckOutput;
  throw new UserError(`validation error when executing check command: Invalid output type '${output}'. Supported output types are: json, table, short`);
}

export interface VizCheckFlags {
  cluster: KubeSelection;
  controlPlaneNamespace: string;
  proxy: boolean;
  /** `-n`: the data-plane namespace for `--proxy` (all when empty). */
  namespace?: string;
  vizNamespace?: string;
  apiAddr?: string;
  waitMs: number;
  env: NodeJS.ProcessEnv;
}

export function vizCheckRequest(f: VizCheckFlags): CheckRequest {
  return {
    family: VIZ_CHECK_FAMILY,
    mode: f.proxy ? 'proxy' : 'default',
    kube: f.cluster,
    controlPlaneNamespace: f.controlPlaneNamespace,
    dataPlaneNamespace: f.namespace || undefined,
    cliVersion: clientVersion(f.env),
    versionCheck: { url: f.env.LINKERD_VERSIONCHECK_URL || VERSIONCHECK_URL, timeoutMs: DEFAULT_VERSIONCHECK_TIMEOUT_MS },
    timeoutMs: DEFAULT_TIMEOUT_MS,
    waitMs: f.waitMs,
    env: f.env,
    apiAddr: f.apiAddr || undefined,
    families: { viz: { vizNamespace: f.vizNamespace || undefined } },
  };
}
