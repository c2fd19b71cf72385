import { readTextFileBounded } from '../input/boundedRead.js';
import { VALUES_LIMIT } from '../input/limits.js';
import type { ChartOf, SetFlag } from './chart.js';
import { type ComposedValues, composeChartValues } from './composeValues.js';
import { type ValuesReader, readValuesFile, readValuesFiles } from './valuesFiles.js';

/*
 * From what a command read off its command line (value flags, `-f`, `--set*`) to a chart's
 * validated values: the one entry point a family's install or upgrade needs.
 */

/** Helm's value options plus the chart's value flags the user set. */
export interface ChartInputs {
  /** Value flags the user set, in any order (applied in the chart's order). */
  flags?: readonly SetFlag[];
  /** `-f/--values` arguments: paths, URLs or `-`, in command-line order. */
  valuesFiles?: readonly string[];
  set?: readonly string[];
  setString?: readonly string[];
  setFile?: readonly string[];
}

export interface ChartInputOptions<V, C> {
  /** What the inputs apply to: the chart's defaults unless given (upgrade: defaults + stored overrides). */
  base?: V;
  /** The side input the chart's flags need. */
  flagContext?: C;
  /** Reads `-f` arguments; the bounded local/URL/stdin reader by default. */
  reader?: ValuesReader;
  /** Reads `--set-file` paths; the local file system, up to the values limit, by default. */
  readFile?: (path: string) => string;
}

/** `--set-file` files are values: read within the same limit as `-f` files. */
const readSetFile = (path: string): string => readTextFileBounded(path, VALUES_LIMIT);

/** base → set flags (the chart's order) → `-f` files → `--set` → `--set-string` → `--set-file`, validated. */
export async function composeChartInputs<V, C>(
  chart: ChartOf<V, string, C>,
  inputs: ChartInputs,
  options: ChartInputOptions<V, C> = {},
): Promise<ComposedValues<V>> {
  return composeChartValues(chart, {
    base: options.base ?? chart.defaults(),
    flags: inputs.flags ?? [],
    flagContext: options.flagContext,
    valuesFiles: await readValuesFiles(inputs.valuesFiles ?? [], options.reader ?? readValuesFile),
    set: inputs.set,
    setString: inputs.setString,
    setFile: inputs.setFile,
    readFile: options.readFile ?? readSetFile,
  });
}
