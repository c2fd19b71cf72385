import { UserError } from '../errors.js';
import { DEFAULT_TIMEOUT_MS, DEFAULT_VERSIONCHECK_TIMEOUT_MS, VERSIONCHECK_URL, runCheck } from './index.js';
import { connectKube } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { readLinkerdConfig } from '../kube/linkerdConfig.js';
import { clientVersion } from '../version.js';

/*
 * What an extension's install (viz, multicluster) learns of the core control plane before
 * rendering: linkerd's RunWithExitOnError over the `kubernetes-api` and `linkerd-existence`
 * categories (retried until `--wait`), then linkerd-config's values (viz takes `cniEnabled`,
 * multicluster the trust domain and outbound port).
 */

export interface ControlPlaneRequest {
  /** `-L`. */
  namespace: string;
  cluster: KubeSelection;
  waitMs: number;
  env: NodeJS.ProcessEnv;
  /** Called on each retry (`Waiting for control plane to become available`). */
  onWaiting?: () => void;
}

export const VALIDATE_INSTALL = "Validate the install with: 'linkerd check'";

/** The real words for a failure of each category. */
const REFUSALS: Readonly<Record<string, string>> = {
  'kubernetes-api': 'Cannot connect to Kubernetes',
  'linkerd-existence': 'Cannot find Linkerd',
};

/** Refuses (exit 1, the real two lines) unless the core control plane is there; then reads linkerd-config's values. */
export async function requireControlPlane(req: ControlPlaneRequest): Promise<{ cniEnabled: boolean; values: Record<string, unknown> | undefined }> {
  const report = await runCheck(
    {
      mode: 'default',
      kube: req.cluster,
      controlPlaneNamespace: req.namespace,
      cliVersion: clientVersion(req.env),
      versionCheck: { url: VERSIONCHECK_URL, timeoutMs: DEFAULT_VERSIONCHECK_TIMEOUT_MS },
      timeoutMs: DEFAULT_TIMEOUT_MS,
      waitMs: req.waitMs,
      selection: { skip: [], only: Object.keys(REFUSALS) },
      env: req.env,
      concurrency: 1,
    },
    { waiting: (_check, message) => (message === undefined ? undefined : req.onWaiting?.()) },
  );
  const failed = report.results.find((r) => r.status === 'error');
  if (failed) throw UserError.verbatim(`${REFUSALS[failed.category] ?? failed.category}: ${failed.error ?? ''}\n${VALIDATE_INSTALL}\n`);
  const client = await connectKube(req.cluster, { timeoutMs: DEFAULT_TIMEOUT_MS, env: req.env });
  try {
    const values = await readLinkerdConfig(client, req.namespace);
    return { cniEnabled: values?.cniEnabled === true, values };
  } finally {
    client.close();
  }
}
