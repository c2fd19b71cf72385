import type { ChartOf, SetFlag } from './chart.js';
import { applyChartFlags, firstInvalidFlag, invalidFlagValue } from './chartFlags.js';
import { type OverrideSources, buildOverrides, combineOverlays, mergeValues, parseSetArgs } from './merge.js';
import type { Tree } from './tree.js';
import { type Locate, formatIssues, issueReason } from './validateValues.js';
import { valuesPosition } from './valuesFiles.js';
import { UserError } from '../errors.js';

/*
 * The whole values pipeline of a chart's install/upgrade, in Helm's and linkerd's order (see
 * merge.ts for the precedence): base → explicitly set flags (the chart's order) → overrides (-f
 * files, --set, --set-string, --set-file), validated with the chart's schema.
 */

export interface ValueSources<V, C = undefined> extends OverrideSources {
  /** The chart's defaults on install; defaults + the stored overrides on upgrade. */
  base: V;
  /** Flags the user set (readSetFlags); applied in the chart's order. */
  flags?: readonly SetFlag[];
  flagContext?: C;
}

export interface ComposedValues<V> {
  values: V;
  /** The user's overrides map (what linkerd checks for e.g. `proxyInit.runAsRoot`). */
  overrides: Tree;
}

type AnyChart<V, C> = ChartOf<V, string, C>;

/** The layers of the overrides map, each alone, named for error messages. */
function namedLayers(src: OverrideSources): { source: string; overlay: () => Tree; locate?: Locate }[] {
  return [
    ...(src.valuesFiles ?? []).map((f) => ({
      source: f.path,
      overlay: () => combineOverlays(f.values),
      ...(f.text === undefined ? {} : { locate: (path: readonly PropertyKey[]) => valuesPosition(f.text ?? '', path) }),
    })),
    { source: '--set', overlay: () => parseSetArgs('set', src.set ?? [], src.readFile) },
    { source: '--set-string', overlay: () => parseSetArgs('set-string', src.setString ?? [], src.readFile) },
    { source: '--set-file', overlay: () => parseSetArgs('set-file', src.setFile ?? [], src.readFile) },
  ];
}

/**
 * Throws pflag's `invalid argument "<v>" for "--<flag>" flag: <reason>` when a flag's value breaks
 * the chart's schema (`--inbound-port 70000`), naming the first flag that does; a base that was
 * already invalid is not the flags' fault.
 */
export function assertFlagValues<V, C>(chart: AnyChart<V, C>, base: V, flags: readonly SetFlag[], withFlags: V, ctx?: C): void {
  if (flags.length === 0) return;
  const result = chart.schema.safeParse(withFlags);
  if (result.success || !chart.schema.safeParse(base).success) return;
  const culprit = firstInvalidFlag(chart, base, flags, (v) => chart.schema.safeParse(v).success, ctx);
  if (culprit) throw invalidFlagValue(chart, culprit, issueReason(result.error.issues, withFlags));
}

/**
 * Applies flags and overrides to the base and validates the result with the chart's schema. A
 * schema error names the layer that causes it (`values.yaml:3:3: proxy.foo: unknown key`, `--set: …`).
 */
export function composeChartValues<V, C>(chart: AnyChart<V, C>, src: ValueSources<V, C>): ComposedValues<V> {
  const withFlags = applyChartFlags(chart, src.base, src.flags ?? [], src.flagContext);
  const overrides = buildOverrides(src);
  const merged = mergeValues(withFlags as object, overrides);
  const result = chart.schema.safeParse(merged);
  if (result.success) return { values: result.data, overrides };
  assertFlagValues(chart, src.base, src.flags ?? [], withFlags, src.flagContext);
  for (const layer of namedLayers(src)) {
    const alone = mergeValues(withFlags as object, layer.overlay());
    const check = chart.schema.safeParse(alone);
    if (!check.success) throw new UserError(formatIssues(check.error.issues, alone, layer.source, layer.locate));
  }
  throw new UserError(formatIssues(result.error.issues, merged, 'values'));
}
