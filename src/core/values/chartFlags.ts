import { UserError } from '../errors.js';
import type { ChartOf, SetFlag, ValueFlag } from './chart.js';
import { invalidArgument } from '../parse/invalidArgument.js';
import { asString } from './flagValues.js';
import { deepClone } from './tree.js';

/*
 * A chart's value flags: which a command offers, and applying the ones the user set in the chart's
 * order (linkerd's ApplySetFlags), so a flag that merges a whole overlay (`--ha`) comes before the
 * flags that refine it, wherever the user typed them.
 */

// Charts are declared once and live for the process: their flag tables are indexed once.
const TABLES = new WeakMap<object, { all: readonly unknown[]; index: ReadonlyMap<string, number> }>();

type AnyChart<V, S extends string, C> = ChartOf<V, S, C>;

function table<V, S extends string, C>(chart: AnyChart<V, S, C>): { all: readonly ValueFlag<V, C>[]; index: ReadonlyMap<string, number> } {
  let t = TABLES.get(chart);
  if (t === undefined) {
    const all = (Object.keys(chart.flagSets) as S[]).flatMap((set) => chart.flagSets[set]);
    const index = new Map(all.map((f, i) => [f.name, i]));
    // One name, one flag: a second declaration would be shadowed, silently, in every command.
    if (index.size !== all.length) throw new Error(`${chart.name}: a value flag is declared twice`);
    t = { all, index };
    TABLES.set(chart, t);
  }
  return t as { all: readonly ValueFlag<V, C>[]; index: ReadonlyMap<string, number> };
}

/** Every flag of the chart, in apply order (its sets in declaration order). */
export function chartFlags<V, S extends string, C>(chart: AnyChart<V, S, C>): readonly ValueFlag<V, C>[] {
  return table(chart).all;
}

function indexOf<V, S extends string, C>(chart: AnyChart<V, S, C>): ReadonlyMap<string, number> {
  return table(chart).index;
}

/** The flags of the named sets, in apply order. */
export function flagsOf<V, S extends string, C>(chart: AnyChart<V, S, C>, sets: readonly S[]): ValueFlag<V, C>[] {
  table(chart); // checks the table once
  return (Object.keys(chart.flagSets) as S[]).filter((set) => sets.includes(set)).flatMap((set) => chart.flagSets[set]);
}

function ordered<V, S extends string, C>(chart: AnyChart<V, S, C>, setFlags: readonly SetFlag[]): { flag: ValueFlag<V, C>; value: SetFlag['value'] }[] {
  const index = indexOf(chart);
  const all = chartFlags(chart);
  return setFlags
    .map((f) => {
      const i = index.get(f.name);
      const flag = i === undefined ? undefined : all[i];
      if (i === undefined || flag === undefined) throw new Error(`applyFlags: --${f.name} is not a values flag of ${chart.name}`);
      return { i, flag, value: f.value };
    })
    .sort((a, b) => a.i - b.i);
}

/**
 * Applies explicitly set flags to a copy of `values`, in the chart's order whatever the order
 * given. Unknown names are a programming error.
 */
export function applyChartFlags<V, S extends string, C>(chart: AnyChart<V, S, C>, values: V, setFlags: readonly SetFlag[], ctx?: C): V {
  const out = deepClone(values);
  for (const { flag, value } of ordered(chart, setFlags)) {
    try {
      flag.apply(out, value, ctx);
    } catch (e) {
      // A bad value names the flag the user typed, as pflag does; file flags' errors name the file, as linkerd's do.
      if (e instanceof UserError && !e.message.startsWith('invalid argument ') && !flag.name.endsWith('-file'))
        throw invalidArgument(asString(value), flag, e.message);
      throw e;
    }
  }
  return out;
}

/**
 * The first of `setFlags` (in the chart's order) after whose application `isValid` fails, so a
 * schema error caused by a flag (`--inbound-port 70000`) can name that flag rather than a path.
 */
export function firstInvalidFlag<V, S extends string, C>(
  chart: AnyChart<V, S, C>,
  values: V,
  setFlags: readonly SetFlag[],
  isValid: (v: V) => boolean,
  ctx?: C,
): SetFlag | undefined {
  const index = indexOf(chart);
  const sorted = [...setFlags].sort((a, b) => (index.get(a.name) ?? 0) - (index.get(b.name) ?? 0));
  for (let n = 1; n <= sorted.length; n++) {
    if (!isValid(applyChartFlags(chart, values, sorted.slice(0, n), ctx))) return sorted[n - 1];
  }
  return undefined;
}

function flagNamed<V, S extends string, C>(chart: AnyChart<V, S, C>, name: string): ValueFlag<V, C> | undefined {
  const i = indexOf(chart).get(name);
  return i === undefined ? undefined : chartFlags(chart)[i];
}

/** pflag's `invalid argument "<value>" for "--<flag>" flag: <reason>`. */
export function invalidFlagValue<V, S extends string, C>(chart: AnyChart<V, S, C>, set: SetFlag, reason: string): UserError {
  const flag = flagNamed(chart, set.name);
  if (flag === undefined) return new UserError(reason);
  return invalidArgument(asString(set.value), flag, reason);
}

/** pflag's warnings for deprecated flags the user set. */
export function deprecationWarnings<V, S extends string, C>(chart: AnyChart<V, S, C>, setFlags: readonly SetFlag[]): string[] {
  return setFlags.flatMap((s) => {
    const f = flagNamed(chart, s.name);
    return f?.deprecated ? [`Flag --${f.name} has been deprecated, ${f.deprecated}`] : [];
  });
}
