import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/kit/io.js';
import { runLinkerd } from '../../src/cli/main.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const LINKERD_BIN = fileURLToPath(new URL('../../bin/linkerd', import.meta.url));

/** What a run of the CLI showed: its exit code and both streams. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to the base environment (PATH, HOME, CI=true, KUBECONFIG=/nonexistent/kubeconfig). */
  env?: NodeJS.ProcessEnv;
  /** Standard input (empty by default). */
  input?: string;
  cwd?: string;
  /**
   * Start bin/linkerd as a process (after `npm run build`) instead of calling the CLI in this
   * one: for tests about the launcher, the snapshot, the bundle, signals or the package.
   */
  spawn?: boolean;
}

/** No ambient cluster, namespace or registry: each test says what it wants. */
function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', KUBECONFIG: '/nonexistent/kubeconfig', ...extra };
}

/** Streams that keep what is written, and a standard input holding `input`; not terminals. */
export function bufferIo(env: NodeJS.ProcessEnv = baseEnv(), input = ''): { io: CliIo; stdout: () => string; stderr: () => string } {
  const sink = () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        done();
      },
    });
    return { stream: Object.assign(stream, { isTTY: false, columns: 0 }) as unknown as NodeJS.WriteStream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const out = sink();
  const err = sink();
  const stdin = Object.assign(Readable.from(input === '' ? [] : [Buffer.from(input)]), { isTTY: false }) as unknown as NodeJS.ReadStream;
  return { io: { stdout: out.stream, stderr: err.stream, stdin, env }, stdout: out.text, stderr: err.text };
}

/** In-process runs share this process's globals, so they take turns. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI in this process with buffered streams and the same environment a spawned run
 * gets (the base environment plus `env`), in `cwd` (default: the repository). Everything global
 * the run may change — process.env, the working directory, process.exitCode, the umask and
 * process.stdin — is put back afterwards.
 */
function runInProcess(args: readonly string[], opts: CliOptions): Promise<CliResult> {
  const run = async (): Promise<CliResult> => {
    const env = baseEnv(opts.env);
    // The run gets the usual umask (022); the one before is put back.
    const saved = { env: { ...process.env }, cwd: process.cwd(), exitCode: process.exitCode, umask: process.umask(0o022) };
    const stdinDescriptor = Object.getOwnPropertyDescriptor(process, 'stdin');
    const b = bufferIo(process.env, opts.input ?? '');
    replaceEnv(env);
    process.chdir(opts.cwd ?? REPO_ROOT);
    process.exitCode = undefined;
    // Core reads standard input from process.stdin ('-' arguments).
    Object.defineProperty(process, 'stdin', { value: b.io.stdin, configurable: true, enumerable: true });
    try {
      const code = await runLinkerd(args, b.io);
      return { code, stdout: b.stdout(), stderr: b.stderr() };
    } finally {
      if (stdinDescriptor) Object.defineProperty(process, 'stdin', stdinDescriptor);
      replaceEnv(saved.env);
      process.chdir(saved.cwd);
      process.exitCode = saved.exitCode;
      process.umask(saved.umask);
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/** Makes process.env hold exactly `env` (in place: node's process.env is not a plain object). */
function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;
}

/**
 * Run bin/linkerd (after `npm run build`) as a user would — through its launcher, so from the
 * start-up snapshot when there is one — with no TTY and CI set, so output is plain.
 * Asynchronous, so an in-process loopback API server keeps serving meanwhile.
 */
export function spawnCli(args: readonly string[], opts: Omit<CliOptions, 'spawn'> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(LINKERD_BIN, args, { cwd: opts.cwd ?? REPO_ROOT, env: baseEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? 1 }));
    child.stdin.end(opts.input ?? '');
  });
}

/** The CLI on `args`: in this process by default, as a process with `spawn: true`. */
export function runCli(args: readonly string[], opts: CliOptions = {}): Promise<CliResult> {
  return opts.spawn ? spawnCli(args, opts) : runInProcess(args, opts);
}
