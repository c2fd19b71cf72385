import { VALUE_FLAGS } from '../../core/values/flags.js';
import { boolFlagArg } from '../kit/bools.js';

/*
 * The values flag table's booleans take pflag's `--ha=false` like every other boolean; the kit
 * (src/cli/kit/bools.ts, argv.ts) does the work. This module keeps the table-wide rewrite and
 * the name the values flags declare their booleans through.
 */

export { addBoolFlag } from '../kit/bools.js';

const VALUE_FLAG_BOOLS: ReadonlySet<string> = new Set(VALUE_FLAGS.filter((f) => f.kind === 'bool').map((f) => f.name));

/**
 * Rewrites `--<bool>=true|false` (any strconv.ParseBool spelling) to `--<bool>` / `--no-<bool>`
 * for the booleans named in `bools` (by default every boolean of the values flag table).
 * Arguments after `--` are left alone.
 */
export function normalizeBoolFlagArgs(argv: readonly string[], bools: ReadonlySet<string> = VALUE_FLAG_BOOLS): string[] {
  const out: string[] = [];
  let positional = false;
  for (const arg of argv) {
    const m = positional ? null : /^--([^=]+)=(.*)$/s.exec(arg);
    if (arg === '--') positional = true;
    const name = m?.[1];
    const word = m?.[2];
    out.push(name === undefined || word === undefined || !bools.has(name) ? arg : boolFlagArg(name, word));
  }
  return out;
}
