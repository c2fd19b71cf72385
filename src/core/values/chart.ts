import type { z } from 'zod';
import { LINKERD_VERSION } from '../version.js';
import type { FlagKind, FlagValue } from './flagValues.js';

/*
 * A chart, as this CLI renders it: the values schema and this release's defaults, the value flags
 * its commands offer (in named sets), and its templates, typed on the chart's own values. The
 * Helm-values engine (composeValues.ts, chartFlags.ts) takes any chart: a family adds a chart by
 * declaring one in its own folder, and nothing here changes. docs/architecture-values.md shows how.
 */

/** What help, completion and docs need to know of a value flag. */
export interface FlagDeclaration {
  /** The long name, without dashes (`proxy-cpu-request`). */
  readonly name: string;
  readonly short?: string;
  readonly kind: FlagKind;
  readonly default: FlagValue;
  readonly help: string;
  /** Never shown in help. */
  readonly hidden?: boolean;
  /** Hidden in release builds (edge/stable versions), shown in dev builds. */
  readonly hiddenInRelease?: boolean;
  /** pflag's deprecation note, printed as `Flag --<name> has been deprecated, <note>`. */
  readonly deprecated?: string;
  /** Environment variable that presets the flag as if the user had set it. */
  readonly env?: string;
  /**
   * Go uint flags: rejects negative numbers, and help names the type `uint` (`uints` for a
   * stringSlice of unsigned entries, pflag's UintSlice).
   */
  readonly unsigned?: boolean;
  /** pflag's type name in help when the kind's is not it (`uint32` for a Uint32Var). */
  readonly goType?: 'uint32';
}

/**
 * A flag that changes a chart's values. `C` is the side input some flags need (a file reader,
 * PEM normalisers); charts whose flags need none leave it `undefined`.
 */
export interface ValueFlag<V, C = undefined> extends FlagDeclaration {
  /** Changes `values` in place; throws UserError on a bad value. */
  apply(values: V, value: FlagValue, ctx?: C): void;
}

/** A flag the user set, as the CLI read it. */
export interface SetFlag {
  readonly name: string;
  readonly value: FlagValue;
}

/**
 * A chart's templates by name: each is a pure function of the chart's values (and a render context
 * of its own), so the same inputs give the same objects. `T` is the chart's own templates type (an
 * interface or a type literal), checked to take the chart's values.
 */
export type ChartTemplates<T, V> = { readonly [K in keyof T]: TemplateOf<V> };
// A method's parameters are compared both ways, so a chart of any values fits a ChartInfo.
type TemplateOf<V> = { render(values: V, ctx: never): unknown }['render'];

/**
 * `V`: the values (the schema's output); `S`: the names of its flag sets; `C`: the flags' side
 * input; `T`: the templates, loaded on first use so declaring a chart costs nothing at start-up.
 */
export interface Chart<V, S extends string = string, C = undefined, T extends ChartTemplates<T, V> = Readonly<Record<string, TemplateOf<V>>>> {
  /** The Helm chart's name (`linkerd-control-plane`). */
  readonly name: string;
  /** Strict: a typo in `-f` or `--set` is an error naming the key, not a no-op. */
  readonly schema: z.ZodType<V>;
  /** This release's defaults (the chart's values.yaml), a fresh copy each call. */
  defaults(): V;
  /**
   * Named sets of value flags; a command asks for the sets it offers. The order of the sets, then
   * of the flags in each, is the order flags apply in (linkerd's ApplySetFlags), whatever the order
   * on the command line. Flag names are unique across the sets.
   */
  readonly flagSets: { readonly [K in S]: readonly ValueFlag<V, C>[] };
  templates(): Promise<T>;
}

/** Any chart of values `V`, whatever its templates: what the engine takes. */
export type ChartOf<V, S extends string = string, C = unknown> = Chart<V, S, C, object>;

/** A chart as the family registry sees it, whatever its values type. */
export interface ChartInfo {
  readonly name: string;
  readonly schema: z.ZodType;
  defaults(): unknown;
  readonly flagSets: Readonly<Record<string, readonly FlagDeclaration[]>>;
}

/** A family's chart in its declaration: the name now, the chart itself on first use. */
export interface ChartEntry {
  readonly name: string;
  load(): Promise<ChartInfo>;
}

/** Release builds (edge/stable) hide development flags, like the Go CLI. */
export function isReleaseVersion(version: string = LINKERD_VERSION): boolean {
  return /^(edge|stable)-/.test(version);
}

// A chart's flags parse their arguments with these, so every chart speaks pflag's words.
export { asBool, asDuration, asInt, asSlice, asString } from './flagValues.js';
export { invalidArgument } from '../parse/invalidArgument.js';
export type { FlagKind, FlagValue } from './flagValues.js';
export { chartFlags, flagsOf, applyChartFlags, firstInvalidFlag, invalidFlagValue, deprecationWarnings } from './chartFlags.js';
export { composeChartValues, assertFlagValues } from './composeValues.js';
export type { ValueSources, ComposedValues } from './composeValues.js';
export { composeChartInputs } from './chartInputs.js';
export type { ChartInputs, ChartInputOptions } from './chartInputs.js';
