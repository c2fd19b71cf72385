/*
 * The outputs of the CLI that are fixed when it is built: the help of every command (`--help`,
 * `-h`, `help …`, a bare group) and `version --client`. bin/linkerd prints them from files
 * (dist/fast/) instead of starting node, when the arguments are exactly such a request and nothing
 * the run would read could change them (docs/architecture.md#how-it-starts).
 *
 * Made by the real code path, once, at build time: `npm run bundle` runs this file as a script in
 * a child process with an empty environment; it loads the bundle (dist/bundle/main.js, what the
 * launcher would run), lists every command path of the loaded program, runs each request with
 * buffered streams and keeps the ones that exit 0 with nothing on stderr. process.env is replaced
 * by a proxy that records what the runs read: those names go to dist/fast/env, and the launcher
 * serves no file while any of them is set (a run that lists the whole environment is not kept).
 * The files are written to a temporary directory renamed to dist/fast at the end: a failed
 * generation leaves none.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { isDeprecated } from '../cli/kit/deprecation.js';
import type { CliIo } from '../cli/kit/io.js';

/** What the bundle's main module exports (dist/bundle/main.js is built from src/cli/main.ts). */
type Main = typeof import('../cli/main.js');

/** The launcher's rule for a request it may serve: at most this many words, each of these characters. */
const MAX_WORDS = 5;
const WORD = /^[a-z0-9-]+$/;

/** The file (under dist/fast/) holding the output of `linkerd <args…>`: the words joined by dots, as bin/linkerd names it. */
export function fileOf(args: readonly string[]): string {
  return ['linkerd', ...args].join('.');
}

/** A command, every way to name it from the root (its name or any alias, word by word), and whether the way passes a deprecated command. */
interface CommandPath {
  variants: string[][];
  cmd: Command;
  deprecated: boolean;
}

/** Every command below `cmd`, with the words that reach it. */
function commandPaths(cmd: Command, prefix: string[][] = [[]], deprecated = false): CommandPath[] {
  const out: CommandPath[] = [];
  for (const sub of cmd.commands) {
    const names = [sub.name(), ...sub.aliases()];
    const here = prefix.flatMap((p) => names.map((n) => [...p, n]));
    const through = deprecated || isDeprecated(sub);
    out.push({ variants: here, cmd: sub, deprecated: through }, ...commandPaths(sub, here, through));
  }
  return out;
}

/**
 * The requests whose answer is fixed at build time: for the root and every command path (by name
 * or alias), its help as `--help`, `-h` and `help <path>` (through a deprecated command only as
 * `help <path>`: its `--help` also writes the deprecation to stderr); a command with subcommands
 * named alone (a bare group prints its help, when its output is the same as with `--help`: checked
 * by the caller); `version --client` with and without `--short`.
 */
export function constantRequests(program: Command): { help: string[][]; bare: string[][]; other: string[][] } {
  const help: string[][] = [];
  const bare: string[][] = [];
  for (const { variants, cmd, deprecated } of [{ variants: [[]], cmd: program, deprecated: false }, ...commandPaths(program)]) {
    for (const p of variants) {
      if (!deprecated) help.push([...p, '--help'], [...p, '-h']);
      help.push(['help', ...p]);
      if (cmd.commands.length > 0) bare.push(p);
    }
  }
  const other = [
    ['version', '--client'],
    ['version', '--client', '--short'],
    ['version', '--short', '--client'],
  ];
  return {
    help: help.filter((a) => a.length <= MAX_WORDS && a.every((w) => WORD.test(w))),
    bare: bare.filter((a) => a.length <= MAX_WORDS && a.every((w) => WORD.test(w))),
    other,
  };
}

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment every run sees: empty, with each name a run reads (or tests) recorded. */
function recordingEnv(read: Set<string>): { env: NodeJS.ProcessEnv; listed: () => boolean } {
  let listed = false;
  const target: NodeJS.ProcessEnv = {};
  const env = new Proxy(target, {
    get: (t, k) => {
      if (typeof k !== 'string') return undefined;
      read.add(k);
      return t[k];
    },
    has: (t, k) => {
      if (typeof k === 'string') read.add(k);
      return Reflect.has(t, k);
    },
    getOwnPropertyDescriptor: (t, k) => {
      if (typeof k === 'string') read.add(k);
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    ownKeys: (t) => {
      listed = true;
      return Reflect.ownKeys(t);
    },
  });
  return { env, listed: () => listed };
}

async function answer(main: Main, args: string[], env: NodeJS.ProcessEnv): Promise<Answer> {
  const sink = () => {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    return { stream: Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream, text: () => text };
  };
  const out = sink();
  const err = sink();
  const io: CliIo = {
    stdout: out.stream,
    stderr: err.stream,
    get stdin(): NodeJS.ReadStream {
      throw new Error('a constant output read standard input');
    },
    env,
  };
  const code = await main.runLinkerd(args, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Writes dist/fast (`out`) from the bundle at `bundleMain`. */
export async function writeConstantOutputs(bundleMain: string, out: string, buildId: string): Promise<number> {
  if (!/^[0-9a-f-]+$/.test(buildId)) throw new Error(`not a build id: ${JSON.stringify(buildId)}`);
  const read = new Set<string>();
  const { env, listed } = recordingEnv(read);
  process.env = env;
  const main = (await import(pathToFileURL(bundleMain).href)) as Main;
  const program = await main.loadAllCommands({
    io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env },
    exitCode: 0,
    globals: () => {
      throw new Error('no command runs here');
    },
  });
  const { help, bare, other } = constantRequests(program);
  const files = new Map<string, string>();
  const keep = async (args: string[], sameAs?: string) => {
    const a = await answer(main, args, env);
    if (a.code !== 0 || a.stderr !== '') return undefined;
    if (sameAs !== undefined && a.stdout !== sameAs) return undefined;
    files.set(fileOf(args), a.stdout);
    return a.stdout;
  };
  for (const args of [...help, ...other]) await keep(args);
  for (const args of bare) {
    const asHelp = files.get(fileOf([...args, '--help']));
    if (asHelp !== undefined) await keep(args, asHelp);
  }
  if (listed()) throw new Error('a constant output listed the whole environment');
  const names = [...read].sort();
  const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad !== undefined) throw new Error(`a constant output read an environment variable the launcher cannot test: ${JSON.stringify(bad)}`);
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(tmp, name), text);
  // The bundle's build id (dist/bundle/build-id), then the variables whose presence sends a run to node.
  writeFileSync(path.join(tmp, 'env'), `${buildId}\n${names.join(' ')}\n`);
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return files.size;
}

// As a script (from src/build/bundle.ts): `node dist/src/build/constantOutputs.js <bundle main> <out dir> <build id>`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [bundleMain = '', out = '', buildId = ''] = process.argv.slice(2);
  const count = await writeConstantOutputs(path.resolve(bundleMain), path.resolve(out), buildId);
  process.stdout.write(`${count}\n`);
}
