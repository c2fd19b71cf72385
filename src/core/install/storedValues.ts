import yaml from 'js-yaml';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { ValuesSchema, defaultValues, formatIssues, mergeValues, type Values } from '../values/index.js';

/** The Secret `install` writes beside the control plane: what differs from the chart defaults. */
export const CONFIG_OVERRIDES = 'linkerd-config-overrides';

/** linkerd's text when the Secret is missing (a Helm install, or a deleted Secret). */
export const MISSING_OVERRIDES =
  'Could not find the linkerd-config-overrides secret. If Linkerd was installed with Helm, please use Helm to perform upgrades';

/**
 * The values the control plane was rendered with, as `upgrade` rebuilds them: this release's
 * chart defaults + the YAML stored in Secret `linkerd-config-overrides`.
 */
export function storedValues(secret: Secret | undefined, namespace: string): Values {
  if (secret === undefined) throw new UserError(MISSING_OVERRIDES);
  const source = `Secret ${namespace}/${CONFIG_OVERRIDES}`;
  const b64 = secret.data?.[CONFIG_OVERRIDES];
  if (b64 === undefined) throw new UserError(`${source} has no key ${CONFIG_OVERRIDES}`);
  let overrides: unknown;
  try {
    overrides = yaml.load(Buffer.from(b64, 'base64').toString('utf8'));
  } catch (e) {
    throw new UserError(`${source}: ${(e as Error).message.split('\n')[0] ?? 'invalid YAML'}`, { cause: e });
  }
  const tree: unknown = overrides ?? {};
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) throw new UserError(`${source}: not a map of values`);
  const merged = mergeValues(defaultValues(), tree);
  const parsed = ValuesSchema.safeParse(merged);
  if (!parsed.success) throw new UserError(formatIssues(parsed.error.issues, merged, source));
  return parsed.data;
}
