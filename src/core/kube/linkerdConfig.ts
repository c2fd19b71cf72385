import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { loadYaml } from '../input/loadYaml.js';
import { overLimitMessage, VALUES_LIMIT } from '../input/limits.js';
import type { ObjectOf, ResourceRef } from './resources.js';
import { LINKERD_CONFIG } from '../mesh/names.js';

/** Anything that can look an object up by name: a `KubeClient` or a `ClusterSnapshot`. */
export interface ObjectFinder {
  find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined>;
}

export interface ParseOptions {
  /** performance.now() time by which parsing must be done (a command's deadline for its cluster reads). */
  deadline?: number;
}

/** Why linkerd-config's values could not be read. */
export type LinkerdConfigProblem = 'no-values' | 'too-large' | 'unparsable' | 'not-a-mapping';

/**
 * A linkerd-config whose values cannot be read: its message is the default words
 * (`failed to parse linkerd-config values: …`); `reason` is the bare cause, for callers that
 * word the failure as the real CLI does in their context (check's `failed to load values from
 * linkerd-config: …`).
 */
export class LinkerdConfigError extends UserError {
  constructor(
    readonly problem: LinkerdConfigProblem,
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LinkerdConfigError';
  }
}

const unreadable = (problem: LinkerdConfigProblem, reason: string, cause?: unknown) =>
  new LinkerdConfigError(problem, reason, `failed to parse ${LINKERD_CONFIG} values: ${reason}`, { cause });

/**
 * The plain object under `data.values` of a linkerd-config ConfigMap (validated elsewhere, by the
 * values model). The values are a values file, so they get the values files' size limit. The
 * one parser of linkerd-config: every reader (version, check, inject, identity) goes through it.
 */
export function parseLinkerdConfigValues(cm: ConfigMap, o: ParseOptions = {}): Record<string, unknown> {
  const raw = cm.data?.values;
  if (raw === undefined) throw new LinkerdConfigError('no-values', 'no values', `${LINKERD_CONFIG} configmap does not contain values`);
  if (raw.length > VALUES_LIMIT.bytes || Buffer.byteLength(raw) > VALUES_LIMIT.bytes) throw unreadable('too-large', overLimitMessage('values', VALUES_LIMIT));
  let parsed: unknown;
  try {
    parsed = loadYaml(raw, undefined, o);
  } catch (e) {
    throw unreadable('unparsable', (e as Error).message.split('\n')[0] ?? '', e);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw unreadable('not-a-mapping', 'not a mapping');
  return parsed as Record<string, unknown>;
}

/** Like parseLinkerdConfigValues, but a ConfigMap without `values` reads as empty values (check's leniency). */
export function linkerdConfigValuesOrEmpty(cm: ConfigMap, o: ParseOptions = {}): Record<string, unknown> {
  return cm.data?.values === undefined ? {} : parseLinkerdConfigValues(cm, o);
}

/**
 * The parsed `values` of `<namespace>/linkerd-config`, or `undefined` when the ConfigMap
 * does not exist. API failures propagate as `KubeError`; unreadable values as `UserError`.
 */
export async function readLinkerdConfig(reader: ObjectFinder, namespace: string, o: ParseOptions = {}): Promise<Record<string, unknown> | undefined> {
  const cm = await reader.find('configmaps', LINKERD_CONFIG, namespace);
  return cm === undefined ? undefined : parseLinkerdConfigValues(cm, o);
}
