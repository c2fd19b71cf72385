import { spawn, type ChildProcess } from 'node:child_process';
import { isatty } from 'node:tty';
import { z } from 'zod';
import { firstLine } from '../errors.js';
import { EXEC_OUTPUT_LIMIT, overLimitMessage } from '../input/limits.js';
import { KubeError } from './kubeError.js';
import { onInterrupt } from '../onInterrupt.js';

/*
 * Kubeconfig `user.exec` credential plugins (client-go's protocol: run the command, read an
 * ExecCredential from its stdout, cache it until its expirationTimestamp). client-node runs them
 * too, but without a deadline, with unbounded output, and leaving the child running when we are
 * interrupted — so the plugin is run here:
 *  - kubectl waits for a plugin forever (client-go chose not to kill slow interactive logins);
 *    we give it the command's request deadline, or 5 minutes when it may prompt (stdin is a
 *    terminal and `interactiveMode` is not `Never`), then kill it;
 *  - it runs in its own process group, killed whole on the deadline and on SIGINT/SIGTERM/SIGHUP
 *    (a plugin that may prompt stays in ours: a background group reading the terminal would be
 *    stopped by SIGTTIN; the terminal's Ctrl-C reaches it directly, and it alone is killed);
 *  - it gets stdin only when it may prompt, and KUBERNETES_EXEC_INFO like client-go sets it;
 *  - its stdout is read up to a limit.
 */

/** A plugin that may prompt (a login in a browser or on the terminal) gets this long. */
export const INTERACTIVE_PLUGIN_TIMEOUT_MS = 5 * 60_000;

const execConfigSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).nullish(),
  env: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
  apiVersion: z.string().nullish(),
  installHint: z.string().nullish(),
  interactiveMode: z.enum(['Never', 'IfAvailable', 'Always']).nullish(),
});

const execCredentialSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.literal('ExecCredential'),
  status: z
    .object({
      token: z.string().optional(),
      clientCertificateData: z.string().optional(),
      clientKeyData: z.string().optional(),
      expirationTimestamp: z.string().optional(),
    })
    .optional(),
});

export type ExecCredential = NonNullable<z.infer<typeof execCredentialSchema>['status']>;

export interface ExecPluginOptions {
  /** Deadline for a plugin that cannot prompt. */
  timeoutMs: number;
  /** Whether standard input is a terminal (a plugin may then prompt); the process's by default. */
  stdinIsTTY?: boolean;
}

/** Kills a plugin: its whole process group when it leads one. */
function kill(child: ChildProcess, group: boolean): void {
  if (child.pid === undefined) return;
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

function configError(message: string, hint?: string | null): KubeError {
  return new KubeError('config', `getting credentials: ${message}${hint ? `\n\n${hint}` : ''}`);
}

/** Runs the plugin once and returns its credential. */
async function runPlugin(raw: unknown, o: ExecPluginOptions): Promise<ExecCredential> {
  const parsed = execConfigSchema.safeParse(raw);
  if (!parsed.success) throw configError(`exec: invalid exec configuration: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const exec = parsed.data;
  const interactive = (o.stdinIsTTY ?? isatty(0)) && exec.interactiveMode !== 'Never';
  const timeoutMs = interactive ? Math.max(o.timeoutMs, INTERACTIVE_PLUGIN_TIMEOUT_MS) : o.timeoutMs;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const e of exec.env ?? []) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion: exec.apiVersion ?? 'client.authentication.k8s.io/v1beta1',
    kind: 'ExecCredential',
    spec: { interactive },
  });
  const child = spawn(exec.command, exec.args ?? [], { env, detached: !interactive, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
  // Killed too if we are interrupted (the signal then ends us as it would have).
  const untrack = onInterrupt(() => kill(child, !interactive));
  const stdout = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: KubeError | undefined;
    const stop = (err: KubeError) => {
      failure ??= err;
      kill(child, !interactive);
    };
    const timer = setTimeout(
      () => stop(configError(`exec: executable ${exec.command} did not finish within ${formatSeconds(timeoutMs)}; it was stopped`)),
      timeoutMs,
    );
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > EXEC_OUTPUT_LIMIT.bytes) stop(configError(overLimitMessage(`exec: executable ${exec.command}`, EXEC_OUTPUT_LIMIT)));
      else chunks.push(c);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      failure ??= e.code === 'ENOENT' ? configError(`exec: executable ${exec.command} not found`, exec.installHint) : configError(`exec: ${e.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      untrack();
      if (failure) reject(failure);
      else if (code !== 0)
        reject(configError(`exec: executable ${exec.command} failed with ${code === null ? `signal ${signal ?? ''}` : `exit code ${code}`}`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (e) {
    throw configError(`decoding stdout: ${firstLine(e)}`);
  }
  const cred = execCredentialSchema.safeParse(json);
  if (!cred.success) throw configError('decoding stdout: not an ExecCredential');
  const status = cred.data.status;
  if (!status || (!status.token && !status.clientCertificateData)) throw configError(`exec plugin didn't return a token or cert/key pair`);
  if (Boolean(status.clientCertificateData) !== Boolean(status.clientKeyData)) {
    throw configError('exec plugin returned a client certificate without its key, or a key without its certificate');
  }
  return status;
}

/** One kubeconfig user's `exec` entry: its current credential, run again when needed. */
export interface ExecCredentialSource {
  /** The cached credential until it is past its expirationTimestamp, else a new one. */
  get(): Promise<ExecCredential>;
  /** The server refused `used` (401): the next get() runs the plugin again, as client-go does. */
  rejected(used: ExecCredential): void;
}

/**
 * A credential source for one kubeconfig user's `exec` entry: each get() returns the cached
 * credential (token or client certificate) until it expires or is refused, running the plugin
 * (once, however many requests wait) when needed.
 */
export function execCredentialSource(exec: unknown, o: ExecPluginOptions): ExecCredentialSource {
  let current: Promise<ExecCredential> | undefined;
  /** What `current` gave, once it has. */
  let latest: ExecCredential | undefined;
  const fresh = (): Promise<ExecCredential> => {
    const run = runPlugin(exec, o);
    current = run;
    latest = undefined;
    run.then(
      (c) => {
        if (current === run) latest = c;
      },
      () => {
        if (current === run) current = undefined;
      },
    );
    return run;
  };
  return {
    get: async () => {
      const pending = current ?? fresh();
      const c = await pending;
      const expires = c.expirationTimestamp ? Date.parse(c.expirationTimestamp) : NaN;
      if (Number.isNaN(expires) || expires > Date.now()) return c;
      // Expired: the first request to find it so runs the plugin, the others wait for that run.
      return current === pending ? fresh() : (current ?? fresh());
    },
    rejected: (used) => {
      if (latest !== undefined && latest === used) {
        current = undefined;
        latest = undefined;
      }
    },
  };
}
