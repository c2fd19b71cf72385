import { spawn } from 'node:child_process';
import { openSync, readFileSync, closeSync } from 'node:fs';
import { REPO_ROOT } from './cli.js';

/*
 * The built CLI run against hostile input with a fence around it: its peak resident memory is
 * read from /proc while it runs and it is killed (with its process group) past `maxRssMb` or
 * `timeoutMs`, so a regression fails the test instead of taking the machine down. The bundle is
 * started directly (`node dist/bundle/run.js`) so V8 flags such as --max-old-space-size apply.
 */

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size seen, in MiB. */
  peakRssMb: number;
  /** Why the fence killed it, if it did. */
  killed?: 'memory' | 'time';
  /** The child's pid (for checks on what it left behind). */
  pid: number;
}

export interface BoundedOptions {
  env?: NodeJS.ProcessEnv;
  /** A file to connect to standard input (e.g. /dev/zero); nothing by default. */
  stdinFile?: string;
  input?: string;
  maxRssMb?: number;
  timeoutMs?: number;
  /** V8 heap limit passed to node. */
  maxOldSpaceMb?: number;
  /** Called once the child has started. */
  onStart?: (pid: number) => void;
}

function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const CAP = 1 << 20; // keep at most 1 MiB of each output stream

export function runBounded(args: string[], o: BoundedOptions = {}): Promise<BoundedRun> {
  const nodeArgs = o.maxOldSpaceMb ? [`--max-old-space-size=${o.maxOldSpaceMb}`] : [];
  const stdinFd = o.stdinFile ? openSync(o.stdinFile, 'r') : undefined;
  const child = spawn(process.execPath, [...nodeArgs, 'dist/bundle/run.js', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', CI: 'true', ...o.env },
    stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  if (stdinFd !== undefined) closeSync(stdinFd);
  else child.stdin?.end(o.input ?? '');
  const pid = child.pid ?? 0;
  o.onStart?.(pid);
  const maxRss = o.maxRssMb ?? 512;
  let peak = 0;
  let killed: BoundedRun['killed'];
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < CAP) stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < CAP) stderr += d;
  });
  const kill = (why: 'memory' | 'time') => {
    killed ??= why;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  };
  const poll = setInterval(() => {
    peak = Math.max(peak, peakRss(pid));
    if (peak > maxRss) kill('memory');
  }, 25);
  const timer = setTimeout(() => kill('time'), o.timeoutMs ?? 30_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      peak = Math.max(peak, peakRss(pid));
    });
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, peakRssMb: Math.round(peak), killed, pid });
    });
  });
}
