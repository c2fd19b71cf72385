import type { Command, Option } from 'commander';
import type { CompletionContext, CompletionSource } from '../kit/family.js';
import { completionSourceOf } from '../kit/flags.js';
import { isPersistent } from '../help/cobraHelp.js';

/*
 * `linkerd __complete WORD... CURRENT`: what the shell scripts ask for on TAB, answered from the
 * commander tree itself (so every registered command is covered): subcommands, the flags help
 * shows (never hidden ones, nor the `--no-*` twins), and flag values — `-o` formats, namespaces
 * and contexts, check ids. One candidate per line; nothing means "let the shell complete files".
 */

/** Where values of one flag come from. */
export type ValueSource = CompletionSource;
export type { CompletionContext };

/** The families' named sources; a flag names its own (FlagSpec.completion). */
export type CompletionSources = Readonly<Record<string, ValueSource>>;

const argumentChoices = new WeakMap<Command, readonly string[]>();

/** Values offered for the command's positional arguments (e.g. `completion`'s shells). */
export function setArgumentChoices(cmd: Command, choices: readonly string[]): Command {
  argumentChoices.set(cmd, choices);
  return cmd;
}

function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

/** The options in effect for `cmd`: its own and its ancestors' persistent ones. */
function optionsInScope(cmd: Command): Option[] {
  const out: Option[] = [...cmd.options];
  for (let c = cmd.parent; c; c = c.parent) out.push(...c.options.filter((o) => isPersistent(o, c)));
  return out;
}

function findOption(cmd: Command, flag: string): Option | undefined {
  return optionsInScope(cmd).find((o) => o.long === flag || o.short === flag);
}

function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** The formats a flag's own help lists (`One of: json|yaml`, `one of: table, json, short`). */
export function choicesFromHelp(o: Option): string[] {
  if (o.argChoices) return [...o.argChoices];
  const m = /one of:?\s+([\w-]+(?:\s*(?:,|\||or)\s*[\w-]+)+)/i.exec(o.description);
  return m?.[1] ? m[1].split(/\s*(?:,|\||\bor\b)\s*/).filter((s) => s !== '') : [];
}

async function valuesOf(o: Option, ctx: CompletionContext, sources: CompletionSources): Promise<string[]> {
  const name = completionSourceOf(o);
  const source = name === undefined ? undefined : sources[name];
  if (source) return source(ctx);
  return choicesFromHelp(o);
}

function visible(o: Option): boolean {
  return !o.hidden && o.long !== '--help';
}

/**
 * Candidates for the last of `words` (the word being typed, maybe ''), given the words before it.
 * bash splits `--output=js` into `--output`, `=`, `js`; that is understood too.
 */
export async function complete(root: Command, words: readonly string[], sources: CompletionSources): Promise<string[]> {
  const cur = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  let cmd = root;
  const ctx: CompletionContext = {};
  let pendingValue: Option | undefined;
  for (let i = 0; i < before.length; i++) {
    const w = before[i] ?? '';
    if (pendingValue) {
      if (w === '=') continue;
      if (pendingValue.long === '--kubeconfig') ctx.kubeconfig = w;
      if (pendingValue.long === '--context') ctx.context = w;
      pendingValue = undefined;
      continue;
    }
    if (w.startsWith('-')) {
      const [flag = '', inline] = w.split(/=(.*)/s);
      const o = findOption(cmd, flag);
      if (o && takesValue(o)) {
        if (inline === undefined) pendingValue = o;
        else if (o.long === '--kubeconfig') ctx.kubeconfig = inline;
        else if (o.long === '--context') ctx.context = inline;
      }
      continue;
    }
    cmd = subcommand(cmd, w) ?? cmd;
  }
  const starting = (values: readonly string[], prefix: string) => values.filter((v) => v.startsWith(prefix));
  if (pendingValue) return starting(await valuesOf(pendingValue, ctx, sources), cur === '=' ? '' : cur);
  const inline = /^(--[^=]+)=(.*)$/s.exec(cur);
  if (inline?.[1] !== undefined) {
    const o = findOption(cmd, inline[1]);
    if (!o || !takesValue(o)) return [];
    return starting(await valuesOf(o, ctx, sources), inline[2] ?? '').map((v) => `${inline[1]}=${v}`);
  }
  if (cur.startsWith('-')) {
    const flags = optionsInScope(cmd)
      .filter(visible)
      .flatMap((o) => [o.long, o.short])
      .filter((f): f is string => f !== undefined);
    return starting([...new Set(flags)].sort(), cur);
  }
  // Hidden and deprecated commands run but are not offered (cobra's IsAvailableCommand).
  const subcommands = cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => !hiddenCommand(c))
    .map((c) => c.name());
  if (subcommands.length > 0) return starting([...subcommands, 'help'].sort(), cur);
  return starting(argumentChoices.get(cmd) ?? [], cur);
}

function hiddenCommand(c: Command): boolean {
  return c.name().startsWith('__') || c.name() === 'help';
}
