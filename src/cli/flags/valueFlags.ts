import type { Command } from 'commander';
import { type ChartOf, type SetFlag, flagsOf, isReleaseVersion } from '../../core/values/chart.js';
import { type FlagKind, type FlagValue, splitSliceArg } from '../../core/values/flagValues.js';
import { addBoolFlag } from './boolFlags.js';

/*
 * The commander side of a chart's value flags (src/core/values/chart.ts): declaring the flag sets
 * a command offers, and reading back the ones the user set, ready for the chart's applyFlags.
 */

type AnyChart<S extends string> = ChartOf<unknown, S>;

/** commander's attribute name for a long flag (`proxy-cpu-request` → `proxyCpuRequest`). */
export function attributeName(name: string): string {
  return name.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
}

const ARG_NAMES: Readonly<Record<Exclude<FlagKind, 'bool'>, string>> = {
  string: '<string>',
  int: '<int>',
  duration: '<duration>',
  stringSlice: '<strings>',
};

/** pflag's names of the unsigned kinds: `uint` (Uint, Uint64) and `uints` (UintSlice). */
const UNSIGNED_ARG_NAMES: Readonly<Partial<Record<FlagKind, string>>> = { int: '<uint>', stringSlice: '<uints>' };

/**
 * Registers the flags of the chart's `sets` on a commander command. Booleans also get a hidden
 * `--no-<name>` (so `--<name>=false` works with acceptGoBools); string slices accumulate across repeats.
 */
export function addValueFlags<S extends string>(command: Command, chart: AnyChart<S>, sets: readonly S[], options: { release?: boolean } = {}): Command {
  const release = options.release ?? isReleaseVersion();
  for (const f of flagsOf(chart, sets)) {
    const names = f.short ? `-${f.short}, --${f.name}` : `--${f.name}`;
    // Deprecated flags still work (with pflag's warning) but are hidden, as MarkDeprecated does.
    const hidden = f.hidden === true || f.deprecated !== undefined || (release && f.hiddenInRelease === true);
    const help = f.help;
    if (f.kind === 'bool') {
      addBoolFlag(command, names, help, { default: f.default === true, hidden });
      continue;
    }
    const arg = f.goType !== undefined ? `<${f.goType}>` : ((f.unsigned === true ? UNSIGNED_ARG_NAMES[f.kind] : undefined) ?? ARG_NAMES[f.kind]);
    const option = command.createOption(`${names} ${arg}`, help).default(f.default).hideHelp(hidden);
    if (f.kind === 'stringSlice') {
      const attr = attributeName(f.name);
      option.argParser((value: string, previous: readonly string[]) => {
        // The first occurrence replaces the default; later ones append, like pflag.
        const fresh = command.getOptionValueSource(attr) !== 'cli';
        return [...(fresh ? [] : previous), ...splitSliceArg(value)];
      });
    }
    command.addOption(option);
  }
  return command;
}

/**
 * The flags of the chart's `sets` the user set on `command` (source `cli`), plus env-preset flags
 * (LINKERD_DOCKER_REGISTRY, when non-empty and the flag was not given) — ready for applyFlags.
 */
export function readSetFlags<S extends string>(
  command: Command,
  chart: AnyChart<S>,
  sets: readonly S[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): SetFlag[] {
  const out: SetFlag[] = [];
  for (const f of flagsOf(chart, sets)) {
    const attr = attributeName(f.name);
    const source = command.getOptionValueSource(attr);
    if (source === 'cli' || source === 'env') {
      out.push({ name: f.name, value: command.getOptionValue(attr) as FlagValue });
    } else if (f.env !== undefined) {
      const preset = env[f.env] ?? '';
      if (preset !== '') out.push({ name: f.name, value: preset });
    }
  }
  return out;
}
