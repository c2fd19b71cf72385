import { execFile } from 'node:child_process';
import type { ApiServer } from './apiserver.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real kubectl against a test API server, asynchronously (the server lives in this
 * process), with `input` on its standard input.
 */
export function kubectl(server: Pick<ApiServer, 'kubeconfigPath' | 'dir'>, args: readonly string[], input?: string): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', server.kubeconfigPath, '--cache-dir', `${server.dir}/cache`, ...args],
      { env: { PATH: process.env.PATH, HOME: server.dir }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}
