import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKERD_BIN, REPO_ROOT } from '../support/cli.js';
import { newAnchorFiles, tempDir } from '../core/identity/support.js';

/*
 * A file read through a non-blocking descriptor whose writer is silent for a while (here the pipe
 * behind /dev/stdin, which certificate files are opened O_NONBLOCK for): the read waits for the
 * writer without burning the CPU, then reads what comes. CPU time comes from bash's `time`
 * (user + system of the whole pipeline), compared with the same run whose input is there at once.
 */

const WAIT_S = 1.5;
let t: ReturnType<typeof tempDir>;
let crt: string;

beforeAll(async () => {
  t = tempDir();
  ({ crt } = await newAnchorFiles(t, 'root'));
});
afterAll(() => t.cleanup());

interface TimedRun {
  code: number;
  stdout: string;
  stderr: string;
  cpuSeconds: number;
}

/** `{ sleep S; cat FILE; } | linkerd identity inspect /dev/stdin`, timed by bash. */
function inspectThroughSlowPipe(delaySeconds: number): Promise<TimedRun> {
  const script = 'TIMEFORMAT="cpu %3U %3S"; time { { sleep "$1"; cat "$2"; } | "$3" identity inspect /dev/stdin; }';
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'bash', String(delaySeconds), crt, LINKERD_BIN], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /cpu (\d+\.\d+) (\d+\.\d+)\n$/.exec(stderr);
      if (!m?.[1] || !m[2]) {
        reject(new Error(`no timing in: ${stderr}`));
        return;
      }
      resolve({ code: code ?? 1, stdout, stderr: stderr.slice(0, m.index), cpuSeconds: Number(m[1]) + Number(m[2]) });
    });
  });
}

describe('reads from a non-blocking descriptor', () => {
  it('wait for a silent writer without spinning, then read its bytes', async () => {
    const ready = await inspectThroughSlowPipe(0);
    const slow = await inspectThroughSlowPipe(WAIT_S);
    for (const r of [ready, slow]) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\/dev\/stdin: certificate 1 of 1 \(\/dev\/stdin:1\)\n {2}Subject: {4}CN=root\.linkerd\.cluster\.local\n/);
    }
    // A read asking again at once would spend about the whole wait on the CPU.
    expect(slow.cpuSeconds - ready.cpuSeconds).toBeLessThan(WAIT_S / 2);
  });
});
