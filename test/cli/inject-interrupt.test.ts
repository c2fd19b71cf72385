import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKERD_BIN, REPO_ROOT } from '../support/cli.js';

/*
 * `inject` holds its output until every input is known good, past 8 MiB in a temporary file under
 * TMPDIR. Whichever way the run ends — printed, refused, interrupted — that file and its directory
 * are gone afterwards. The interrupted run is caught while the file exists: its stdout is not read,
 * so it waits on the full pipe with the output spilled.
 */

const ANCHORS = 'fixtures/certs/valid-trust-anchors.pem';
const DOCS = 1500; // about 14 MB injected, past the 8 MiB kept in memory

const doc = (i: number) =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w${i}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n`;

let inputs: string;
let big: string;

beforeAll(() => {
  inputs = mkdtempSync(path.join(os.tmpdir(), 'l5d-interrupt-in-'));
  big = Array.from({ length: DOCS }, (_, i) => doc(i)).join('');
  writeFileSync(path.join(inputs, 'big.yaml'), big);
  writeFileSync(path.join(inputs, 'bad.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: [\n');
});
afterAll(() => rmSync(inputs, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdoutBytes: number;
}

/** `linkerd inject --manual ARGS` with TMPDIR=tmp and `stdin` on standard input. */
function inject(
  tmp: string,
  args: string[],
  stdin: string,
  o: { readStdout: boolean; closeStdoutAfter?: number; whileSpilled?: (pid: number) => void },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(LINKERD_BIN, ['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', ANCHORS, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', TMPDIR: tmp },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdoutBytes = 0;
    if (o.readStdout) {
      child.stdout.on('data', (c: Buffer) => {
        stdoutBytes += c.length;
        // `linkerd inject … | head`: the reader goes away part way.
        if (o.closeStdoutAfter !== undefined && stdoutBytes >= o.closeStdoutAfter) child.stdout.destroy();
      });
    }
    child.stdin.on('error', () => undefined).end(stdin);
    const whileSpilled = o.whileSpilled;
    if (whileSpilled) {
      const poll = setInterval(() => {
        if (spillFiles(tmp).length > 0) {
          clearInterval(poll);
          whileSpilled(child.pid ?? 0);
        }
      }, 50);
      child.on('close', () => clearInterval(poll));
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      child.stdout.destroy();
      resolve({ code, signal, stdoutBytes });
    });
  });
}

/** The spilled output files under `tmp` (`linkerd-output-*` directories). */
function spillFiles(tmp: string): string[] {
  return readdirSync(tmp)
    .filter((d) => d.startsWith('linkerd-output-'))
    .map((d) => path.join(tmp, d, 'manifest'))
    .filter((f) => existsSync(f));
}

describe('inject removes its spilled output on every exit path (CLI)', () => {
  const tmps: string[] = [];
  /** A fresh TMPDIR for one run. */
  const newTmp = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-interrupt-tmp-'));
    tmps.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of tmps) rmSync(dir, { recursive: true, force: true });
  });

  it('printed: all of it on stdout, nothing left in TMPDIR', async () => {
    const tmp = newTmp();
    const r = await inject(tmp, ['-'], big, { readStdout: true });
    expect(r.code).toBe(0);
    expect(r.stdoutBytes).toBeGreaterThan(8 << 20);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('refused (a bad input after a large one): nothing on stdout, nothing left in TMPDIR', async () => {
    const tmp = newTmp();
    const r = await inject(tmp, ['-', path.join(inputs, 'bad.yaml')], big, { readStdout: true });
    expect(r.code).toBe(1);
    expect(r.stdoutBytes).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('cut short (stdout closed part way, as by `| head`): nothing left in TMPDIR', async () => {
    const tmp = newTmp();
    const r = await inject(tmp, ['-'], big, { readStdout: true, closeStdoutAfter: 1 << 20 });
    expect(r.code).toBe(0);
    expect(r.stdoutBytes).toBeLessThan(8 << 20);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} while the output is spilled ends the run as ${signal} would and removes the file`, async () => {
      const tmp = newTmp();
      let sent = false;
      const r = await inject(tmp, ['-'], big, {
        readStdout: false,
        whileSpilled: (pid) => {
          sent = true;
          process.kill(pid, signal);
        },
      });
      expect(sent).toBe(true);
      // Ended by the signal itself: a shell reports 128 + its number (130 for SIGINT, 143 for SIGTERM).
      expect(r).toMatchObject({ code: null, signal });
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);
  }
});
