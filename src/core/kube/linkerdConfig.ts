import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { loadYaml } from '../input/loadYaml.js';
import type { ObjectOf, ResourceRef } from './resources.js';
import { LINKERD_CONFIG } from '../mesh/names.js';

/** Anything that can look an object up by name: a `KubeClient` or a `ClusterSnapshot`. */
export interface ObjectFinder {
  find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined>;
}

/** The plain object under `data.values` of a linkerd-config ConfigMap (validated elsewhere, by the values model). */
export function parseLinkerdConfigValues(cm: ConfigMap): Record<string, unknown> {
  const raw = cm.data?.values;
  if (raw === undefined) throw new UserError(`${LINKERD_CONFIG} configmap does not contain values`);
  let parsed: unknown;
  try {
    parsed = loadYaml(raw);
  } catch (e) {
    throw new UserError(`failed to parse ${LINKERD_CONFIG} values: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError(`failed to parse ${LINKERD_CONFIG} values: not a mapping`);
  return parsed as Record<string, unknown>;
}

/**
 * The parsed `values` of `<namespace>/linkerd-config`, or `undefined` when the ConfigMap
 * does not exist. API failures propagate as `KubeError`; unreadable values as `UserError`.
 */
export async function readLinkerdConfig(reader: ObjectFinder, namespace: string): Promise<Record<string, unknown> | undefined> {
  const cm = await reader.find('configmaps', LINKERD_CONFIG, namespace);
  return cm === undefined ? undefined : parseLinkerdConfigValues(cm);
}
