import { type FlagContext, type SetFlag, applyFlags, firstInvalidFlag, invalidFlagValue } from './flags.js';
import { type OverrideSources, buildOverrides, combineOverlays, mergeValues, parseSetArgs } from './merge.js';
import { type Values, ValuesSchema } from './schema.js';
import type { Tree } from './tree.js';
import { formatIssues, issueReason } from './validateValues.js';
import { UserError } from '../errors.js';

/*
 * The whole values pipeline of install/upgrade, in linkerd's order (see merge.ts for the precedence):
 * base → explicitly set flags (table order) → overrides (-f files, --set, --set-string, --set-file).
 */

export interface ValueSources extends OverrideSources {
  /** defaultValues() on install; defaults + stored linkerd-config-overrides on upgrade. */
  base: Values;
  /** Flags the user set (readSetFlags); applied in table order. */
  flags?: readonly SetFlag[];
  flagContext?: FlagContext;
}

export interface ComposedValues {
  values: Values;
  /** The user's overrides map (what linkerd checks for e.g. `proxyInit.runAsRoot`). */
  overrides: Tree;
}

/** The layers of the overrides map, each alone, named for error messages. */
function namedLayers(src: ValueSources): { source: string; overlay: () => Tree }[] {
  return [
    ...(src.valuesFiles ?? []).map((f) => ({ source: f.path, overlay: () => combineOverlays(f.values) })),
    { source: '--set', overlay: () => parseSetArgs('set', src.set ?? [], src.readFile) },
    { source: '--set-string', overlay: () => parseSetArgs('set-string', src.setString ?? [], src.readFile) },
    { source: '--set-file', overlay: () => parseSetArgs('set-file', src.setFile ?? [], src.readFile) },
  ];
}

/**
 * Throws pflag's `invalid argument "<v>" for "--<flag>" flag: <reason>` when a flag's value breaks
 * the schema (`--inbound-port 70000`), naming the first flag that does; a base that was already
 * invalid is not the flags' fault.
 */
export function assertFlagValues(base: Values, flags: readonly SetFlag[], withFlags: Values, ctx?: FlagContext): void {
  if (flags.length === 0) return;
  const result = ValuesSchema.safeParse(withFlags);
  if (result.success || !ValuesSchema.safeParse(base).success) return;
  const culprit = firstInvalidFlag(base, flags, (v) => ValuesSchema.safeParse(v).success, ctx);
  if (culprit) throw invalidFlagValue(culprit, issueReason(result.error.issues, withFlags));
}

/**
 * Applies flags and overrides to the base and validates the result with the schema. A schema error
 * names the layer that causes it (`values.yaml: proxy.foo: unknown key`, `--set: …`).
 */
export function composeValues(src: ValueSources): ComposedValues {
  const withFlags = applyFlags(src.base, src.flags ?? [], src.flagContext);
  const overrides = buildOverrides(src);
  const merged = mergeValues(withFlags, overrides);
  const result = ValuesSchema.safeParse(merged);
  if (result.success) return { values: result.data, overrides };
  assertFlagValues(src.base, src.flags ?? [], withFlags, src.flagContext);
  for (const layer of namedLayers(src)) {
    const alone = mergeValues(withFlags, layer.overlay());
    const check = ValuesSchema.safeParse(alone);
    if (!check.success) throw new UserError(formatIssues(check.error.issues, alone, layer.source));
  }
  throw new UserError(formatIssues(result.error.issues, merged, 'values'));
}
