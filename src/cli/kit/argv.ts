import type { Command, Option } from 'commander';
import { boolFlagArg } from './bools.js';

/*
 * The one place the command line is rewritten before commander parses it: pflag's
 * `--<bool>=<word>` (and `-b=<word>`) becomes `--<bool>` or `--no-<bool>`, for the booleans of the
 * command being run and its ancestors; and a command may say how operands after `--` are passed
 * (identity names pods there, even one called like a subcommand).
 */

/** How a command passes the operands after `--` (replacing the `--` and what follows it). */
export type DashDashRewrite = (operands: readonly string[]) => string[];

const dashDashOf = new WeakMap<Command, DashDashRewrite>();

export function setDashDashRewrite(cmd: Command, rewrite: DashDashRewrite): void {
  dashDashOf.set(cmd, rewrite);
}

function inScope(cmd: Command, token: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const o = c.options.find((x) => x.long === token || x.short === token);
    if (o) return o;
  }
  return undefined;
}

/** A boolean that has the hidden `--no-` twin addBoolFlag declares. */
function isTwinnedBool(cmd: Command, o: Option): boolean {
  if (!o.isBoolean() || o.negate || o.long === undefined) return false;
  const twin = `--no-${o.long.slice(2)}`;
  for (let c: Command | null = cmd; c; c = c.parent) if (c.options.some((x) => x.long === twin)) return true;
  return false;
}

function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** `args` (without node and the script) as commander should see them. */
export function normalizeArgs(root: Command, args: readonly string[]): string[] {
  const out: string[] = [];
  let cmd = root;
  let operandsOnly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') {
      const rewrite = dashDashOf.get(cmd);
      out.push(...(rewrite ? rewrite(args.slice(i + 1)) : args.slice(i)));
      break;
    }
    const flag = /^(--?[^=-][^=]*)(?:=(.*))?$/s.exec(a);
    if (!flag) {
      const sub = operandsOnly ? undefined : subcommand(cmd, a);
      // The first operand that names no subcommand ends the command path.
      if (sub) cmd = sub;
      else operandsOnly = true;
      out.push(a);
      continue;
    }
    const [, token = '', word] = flag;
    const o = inScope(cmd, token);
    if (o && word !== undefined && isTwinnedBool(cmd, o)) {
      out.push(boolFlagArg((o.long ?? '').slice(2), word, o.short?.slice(1)));
      continue;
    }
    out.push(a);
    // A flag that takes a value takes the next word, whatever it looks like.
    if (o?.required && word === undefined && i + 1 < args.length) out.push(args[++i] ?? '');
  }
  return out;
}
