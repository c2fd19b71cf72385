import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINKERD_BIN, REPO_ROOT } from './cli.js';

const PRELOAD = new URL('./peak-rss.mjs', import.meta.url).href;

export interface PeakRun {
  code: number;
  /** Peak resident set size of the CLI process, in MB. */
  rssMB: number;
  /** The end of stderr (the report of a large input is long). */
  stderrTail: string;
}

/** Runs the built CLI (the bundle, through node) with stdout discarded, and measures its peak RSS. */
export function runCliPeakRss(args: string[]): Promise<PeakRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-rss-'));
  const file = path.join(dir, 'rss');
  return new Promise<PeakRun>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, LINKERD_BIN, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', PEAK_RSS_FILE: file },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderrTail = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderrTail = (stderrTail + d).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code: code ?? 1, rssMB: Number(readFileSync(file, 'utf8')), stderrTail });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
