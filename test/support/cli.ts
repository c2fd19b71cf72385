import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const LINKERD_BIN = fileURLToPath(new URL('../../bin/linkerd', import.meta.url));

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Run the built CLI (`bin/linkerd`, after `npm run build`) as a user would — through its launcher,
 * so from the start-up snapshot when there is one — with no TTY and CI set, so
 * output is plain. Asynchronous, so an in-process loopback API server keeps serving meanwhile.
 */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(LINKERD_BIN, args, {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? 1 }));
    child.stdin.end(opts.input ?? '');
  });
}
