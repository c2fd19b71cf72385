import { execFile } from 'node:child_process';
import type { ApiServer } from './apiserver.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the real kubectl against a test server (asynchronously: the server lives in this process). */
export function kubectl(server: ApiServer, ...args: string[]): Promise<KubectlResult> {
  return kubectlWithInput(server, '', ...args);
}

/** kubectl with `input` on its standard input (`kubectl create -f -`). */
export function kubectlWithInput(server: ApiServer, input: string, ...args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', server.kubeconfigPath, '--cache-dir', `${server.dir}/cache`, ...args],
      { env: { PATH: process.env.PATH, HOME: server.dir }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
