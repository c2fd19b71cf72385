import { UserError } from '../errors.js';
import type { SetFlag } from '../values/chart.js';
import { assertFlagValues } from '../values/composeValues.js';
import { normalizeGoDuration } from '../parse/goDuration.js';
import { invalidArgument } from '../parse/invalidArgument.js';
import { applyFlags, controlPlaneChart } from '../values/controlPlaneChart.js';
import type { FlagValue } from '../values/flagValues.js';
import type { Values } from '../values/schema.js';
import { installValueProblems } from '../values/validate.js';
import { CLOSE_WAIT_ANNOTATION, DEBUG_SIDECAR_ANNOTATION, annotationRow, overrideAnnotations } from './annotations.js';

/*
 * From base values and the proxy flags the user set to what inject writes: the values the proxy is
 * rendered from, and one override annotation per value the flags changed (linkerd's getOverrideAnnotations).
 */

export interface ProxySettings {
  values: Values;
  overrides: Map<string, string>;
  /** `--flag value` behind each override annotation. */
  overrideFlags: Map<string, string>;
  /** Pod annotations of the non-values options (--enable-debug-sidecar, --close-wait-timeout). */
  cliAnnotations: Map<string, string>;
}

export interface ProxySettingsInput {
  base: Values;
  flags: readonly SetFlag[];
  debugSidecar?: boolean;
  /** Go duration; 0 or empty means unset. */
  closeWaitTimeout?: string;
}

function shown(v: FlagValue): string {
  return Array.isArray(v) ? v.join(',') : String(v);
}

export function proxySettings(input: ProxySettingsInput): ProxySettings {
  const values = applyFlags(input.base, input.flags);
  assertFlagValues(controlPlaneChart, input.base, input.flags, values);
  // Report only what the flags broke; the cluster's own values are taken as they are.
  const known = new Set(installValueProblems(input.base));
  const problem = installValueProblems(values).find((p) => !known.has(p));
  if (problem !== undefined) throw new UserError(problem);

  const overrides = overrideAnnotations(values, input.base);
  const overrideFlags = new Map<string, string>();
  for (const key of overrides.keys()) {
    const row = annotationRow(key);
    const flag = input.flags.find((f) => row?.flags.includes(f.name));
    if (flag) overrideFlags.set(key, `--${flag.name} ${shown(flag.value)}`);
  }

  const cliAnnotations = new Map<string, string>();
  if (input.debugSidecar) cliAnnotations.set(DEBUG_SIDECAR_ANNOTATION, 'true');
  if (input.closeWaitTimeout) {
    let d: string;
    try {
      d = normalizeGoDuration(input.closeWaitTimeout);
    } catch (e) {
      throw invalidArgument(input.closeWaitTimeout, 'close-wait-timeout', (e as Error).message);
    }
    if (d !== '0s') cliAnnotations.set(CLOSE_WAIT_ANNOTATION, d);
  }
  return { values, overrides, overrideFlags, cliAnnotations };
}
