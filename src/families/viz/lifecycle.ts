import { UserError } from '../../core/errors.js';
import { connectKube } from '../../core/kube/kubeClient.js';
import { isKubeError } from '../../core/kube/kubeError.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import type { ResourceType } from '../../core/kube/resources.js';
import { NOTHING_TO_UNINSTALL, prunableObjects, stubOfListed, uninstallObjects, type StubObject } from '../../core/lifecycle/index.js';
import { renderVizInstall, type VizInstallRequest } from './install.js';

/*
 * `viz uninstall` and `viz prune` (linkerd's viz/cmd/uninstall.go, prune.go): the core lifecycle's
 * listings with the extension's label instead of the control plane's.
 */

/** The extension's label, and the legacy value older releases set. */
export const UNINSTALL_SELECTOR = 'linkerd.io/extension in (viz,linkerd-viz)';
export const PRUNE_SELECTOR = 'linkerd.io/extension=viz';

const policy = (version: string, plural: string, kind: string): ResourceType => ({ group: 'policy.linkerd.io', version, plural, kind, namespaced: true });

/** What `allow-scrapes` leaves in users' namespaces, found in every namespace by the same label. */
const POLICY_KINDS: readonly ResourceType[] = [
  policy('v1alpha1', 'authorizationpolicies', 'AuthorizationPolicy'),
  policy('v1beta3', 'httproutes', 'HTTPRoute'),
  policy('v1beta3', 'servers', 'Server'),
];

export interface VizLifecycleResult {
  objects: StubObject[];
  /** Lines for stderr. */
  notes: string[];
}

export async function vizUninstall(cluster: KubeSelection, env: NodeJS.ProcessEnv): Promise<VizLifecycleResult> {
  const client = await connectKube(cluster, { env });
  try {
    const core = await uninstallObjects(client, UNINSTALL_SELECTOR);
    const policies = await Promise.all(
      POLICY_KINDS.map(async (t) => {
        try {
          return (await client.list(t, { labelSelector: UNINSTALL_SELECTOR, limit: 500 })).map((o) => stubOfListed(t, o));
        } catch (e) {
          // A cluster without the policy CRDs has none of these to delete.
          if (isKubeError(e) && e.kind === 'notfound') return [];
          if (e instanceof UserError) throw new UserError(`could not fetch ${t.kind} resources: ${e.message}`, { cause: e });
          throw e;
        }
      }),
    );
    const objects = [...core, ...policies.flat()];
    // Nothing to delete is a failure of the command, as in the real one.
    if (objects.length === 0) throw UserError.verbatim(`${NOTHING_TO_UNINSTALL}\n`);
    return { objects, notes: [...client.warnings] };
  } finally {
    client.close();
  }
}

/** The objects labelled viz that the install of these values would not render. */
export async function vizPrune(req: VizInstallRequest & { cluster: KubeSelection }): Promise<VizLifecycleResult> {
  const expected = await renderVizInstall(req);
  const client = await connectKube(req.cluster, { timeoutMs: 30_000, env: req.env });
  try {
    const objects = await prunableObjects(client, expected, PRUNE_SELECTOR);
    return { objects, notes: [...client.warnings] };
  } finally {
    client.close();
  }
}
