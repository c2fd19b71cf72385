import type { Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import type { KubeClient } from '../kube/kubeClient.js';
import { parseClusterValues, parseValuesYaml, type Values } from '../values/index.js';
import { isMap, type Tree } from '../values/tree.js';

/** Secret `<ns>/linkerd-config-overrides`: what `install` set that differs from the chart defaults. */
export const OVERRIDES_SECRET = 'linkerd-config-overrides';

/**
 * What upgrade and the identity rotation say without that Secret (a Helm install): the Go
 * source's raw string, its indentation included.
 */
export const HELM_INSTALLED = `Could not find the ${OVERRIDES_SECRET} secret.\n\t\t\tIf Linkerd was installed with Helm, please use Helm to perform upgrades`;

/** The Secret's one data key, named like the Secret. */
const OVERRIDES_KEY = 'linkerd-config-overrides';

/** Secret `<ns>/linkerd-config-overrides`, or undefined when the control plane was not installed by the CLI. */
export function findOverridesSecret(client: KubeClient, namespace: string): Promise<Secret | undefined> {
  return client.find('secrets', OVERRIDES_SECRET, namespace);
}

/** The stored overrides are a few kilobytes (certificates included); anything far larger is not ours. */
const MAX_OVERRIDES_BYTES = 1024 * 1024;

export interface StoredValues {
  /** Chart defaults of this release + the stored overrides. */
  values: Values;
  /** Stored keys this release does not know (dropped), as dotted paths. */
  unknownKeys: string[];
}

/** Values of 2.9-era installs lived under `global`; its keys move to the top (and win), as linkerd does. */
function hoistGlobal(tree: Tree): Tree {
  const { global, ...rest } = tree;
  return isMap(global) ? { ...rest, ...global } : rest;
}

/**
 * linkerd's loadStoredValues: chart defaults with the Secret's YAML laid over them. Keys this
 * release does not know are dropped and listed; known keys of the wrong type fail.
 */
export function loadStoredValues(secret: Secret): StoredValues {
  const data = secret.data?.[OVERRIDES_KEY];
  if (data === undefined) throw new UserError(`secret/${OVERRIDES_SECRET} is missing ${OVERRIDES_KEY} data`);
  if (data.length > (MAX_OVERRIDES_BYTES * 4) / 3 + 4)
    throw new UserError(`secret/${OVERRIDES_SECRET}: ${OVERRIDES_KEY} is larger than ${MAX_OVERRIDES_BYTES} bytes`);
  const text = Buffer.from(data, 'base64').toString('utf8');
  const tree = hoistGlobal(parseValuesYaml(text, `secret/${OVERRIDES_SECRET}`));
  const parsed = parseClusterValues(tree, `secret/${OVERRIDES_SECRET}`);
  if (parsed.invalidKeys.length > 0) {
    throw new UserError(`secret/${OVERRIDES_SECRET}: wrong type for ${parsed.invalidKeys.join(', ')}`);
  }
  return { values: parsed.values, unknownKeys: parsed.unknownKeys };
}
