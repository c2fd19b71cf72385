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
 * Applies flags and overrides to the base and validates the result with the schema. A schema error
 * names the layer that causes it (`values.yaml: proxy.foo: unknown key`, `--set: …`).
 */
export function composeValues(src: ValueSources): ComposedValues {
  const withFlags = applyFlags(src.base, src.flags ?? [], src.flagContext);
  const overrides = buildOverrides(src);
  const merged = mergeValues(withFlags, overrides);
  const result = ValuesSchema.safeParse(merged);
  if (result.success) return { values: result.data, overrides };
  const flagsAlone = ValuesSchema.safeParse(withFlags);
  if (!flagsAlone.success) {
    const culprit = firstInvalidFlag(src.base, src.flags ?? [], (v) => ValuesSchema.safeParse(v).success, src.flagContext);
    if (culprit) throw invalidFlagValue(culprit, issueReason(flagsAlone.error.issues, withFlags));
  }
  for (const layer of namedLayers(src)) {
    const alone = mergeValues(withFlags, layer.overlay());
    const check = ValuesSchema.safeParse(alone);
    if (!check.success) throw new UserError(formatIssues(check.error.issues, alone, layer.source));
  }
  throw new UserError(formatIssues(result.error.issues, merged, 'values'));
}
