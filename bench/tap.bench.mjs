#!/usr/bin/env node
// `linkerd viz tap` at 10,000 events/s through the loopback API server's tap APIService, its heap
// capped at 64 MiB: memory must stay flat as the stream goes on. Runs the same tap for N events
// and for 4N events (N = BENCH_TAP_EVENTS, default 20,000: 2 s and 8 s at the rate) and compares
// the peak resident set sizes. Target: RSS(4N) ≤ 1.25 × RSS(N). Needs `npm run build`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, root, transpileTestSupport } from './support.mjs';

process.chdir(root);
const N = Number(process.env.BENCH_TAP_EVENTS ?? 20_000);
const RATE = Number(process.env.BENCH_TAP_RATE ?? 10_000);
const TARGET = 1.25;

if (!fs.existsSync(path.join(root, 'dist/src/families/viz/tap/proto.js'))) {
  console.error('dist/ is missing or stale: run `npm run build` first');
  process.exit(1);
}
transpileTestSupport(['test/support']);
const { startApiServer } = await load('test/support/apiserver.js');
const { eventFrames, sampleEvents, vizNamespace } = await load('test/support/tap-events.js');

// One request's three events, repeated; sent in 10 ms ticks of RATE/100 events.
const frames = eventFrames(sampleEvents().slice(0, 3));
const server = await startApiServer({ objects: [vizNamespace] });

function serve(total) {
  server.setTap((_call, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    res.flushHeaders();
    let sent = 0;
    const perTick = Math.max(1, Math.round(RATE / 100));
    const tick = setInterval(() => {
      const batch = [];
      for (let i = 0; i < perTick && sent < total; i++, sent++) batch.push(frames[sent % frames.length]);
      res.write(Buffer.concat(batch));
      if (sent >= total) {
        clearInterval(tick);
        res.end();
      }
    }, 10);
    res.on('close', () => clearInterval(tick));
  });
}

async function run(total) {
  serve(total);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-tap-bench-'));
  const rssFile = path.join(dir, 'rss');
  try {
    const preload = new URL('../test/support/peak-rss.mjs', import.meta.url).href;
    const child = spawn(path.join(root, 'bin/linkerd'), ['viz', 'tap', 'deploy/web', '-n', 'emojivoto', '--kubeconfig', server.kubeconfigPath], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', PEAK_RSS_FILE: rssFile, NODE_OPTIONS: `--max-old-space-size=64 --import ${preload}` },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let lines = 0;
    child.stdout.on('data', (d) => {
      for (const b of d) if (b === 10) lines++;
    });
    const began = process.hrtime.bigint();
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    if (code !== 0) throw new Error(`tap exited with ${code}`);
    if (lines !== total) throw new Error(`tap printed ${lines} lines for ${total} events`);
    return { rss: Number(fs.readFileSync(rssFile, 'utf8')), seconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const small = await run(N);
  const large = await run(4 * N);
  const ratio = large.rss / small.rss;
  console.log(`viz tap at ${RATE} events/s, heap capped at 64 MiB`);
  console.log(`  ${N} events   : peak RSS ${small.rss.toFixed(1)} MB in ${small.seconds.toFixed(1)} s (${(N / small.seconds).toFixed(0)} events/s)`);
  console.log(`  ${4 * N} events   : peak RSS ${large.rss.toFixed(1)} MB in ${large.seconds.toFixed(1)} s (${((4 * N) / large.seconds).toFixed(0)} events/s)`);
  console.log(`ratio ${ratio.toFixed(3)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`);
} finally {
  await server.stop();
}
