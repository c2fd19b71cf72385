import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { UserError } from '../errors.js';
import { connectKube } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { defaultValues, validateInstallValues } from '../values/index.js';
import { renderCrdObjects } from '../mesh/crdObjects.js';
import { renderControlPlaneFor } from '../mesh/renderControlPlaneFor.js';
import { assertEndpointSlices } from '../mesh/endpointSlices.js';
import { OVERRIDES_SECRET, findOverridesSecret, loadStoredValues } from '../mesh/loadStoredValues.js';
import { prunableObjects } from './prune.js';
import type { StubObject } from './stubs.js';
import { NOTHING_TO_UNINSTALL, uninstallObjects, uninstallRefusals } from './uninstall.js';

export interface LifecycleRequest {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  cluster: KubeSelection;
}

export interface LifecycleResult {
  objects: StubObject[];
  /** Lines for stderr. */
  notes: string[];
}

export const NOT_CLI_INSTALLED = `Could not find the ${OVERRIDES_SECRET} secret.\nPlease note this command is only intended for instances of Linkerd that were installed via the CLI`;

/** `linkerd uninstall [--force]`: the refusals, then the objects to delete (spec §2.11). */
export async function uninstall(req: LifecycleRequest & { force: boolean }): Promise<LifecycleResult> {
  const client = await connectKube(req.cluster);
  try {
    if (!req.force) {
      const refusals = await uninstallRefusals(client, req.namespace);
      // Printed as they are, one after the other, like the real CLI.
      if (refusals.length > 0) throw UserError.verbatim(refusals.map((r) => `${r}\n`).join(''));
    }
    const objects = await uninstallObjects(client);
    return { objects, notes: objects.length === 0 ? [NOTHING_TO_UNINSTALL] : [] };
  } finally {
    client.close();
  }
}

/** `linkerd prune`: labelled objects the stored configuration would no longer render (spec §2.11). */
export async function prune(req: LifecycleRequest): Promise<LifecycleResult> {
  const client = await connectKube(req.cluster, { timeoutMs: 30_000 });
  try {
    const secret = await findOverridesSecret(client, req.namespace);
    if (!secret) throw new UserError(NOT_CLI_INSTALLED);
    let values;
    try {
      values = loadStoredValues(secret).values;
    } catch (e) {
      throw UserError.verbatim(`failed to load stored values: ${(e as Error).message}\n`, { cause: e });
    }
    validateInstallValues(values);
    if (values.enableEndpointSlices) await assertEndpointSlices(client);
    const expected: RenderedObject[] = [
      ...(await renderControlPlaneFor({ values, namespace: req.namespace, now: new Date() })),
      // Every CRD the chart can render, Gateway API's included: prune never offers a CRD the chart could own.
      ...(await renderCrdObjects(
        req.namespace,
        { values: { ...defaultValues(), installGatewayAPI: true }, overrides: { installGatewayAPI: true } },
        undefined,
      )),
    ];
    return { objects: await prunableObjects(client, expected), notes: [] };
  } finally {
    client.close();
  }
}
