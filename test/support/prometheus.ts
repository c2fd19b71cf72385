import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * A real Prometheus (the Debian `prometheus` binary) on 127.0.0.1, with a temporary config and
 * storage removed by `stop`, scraping loopback targets every second; and loopback "proxies" whose
 * /metrics counters grow by a fixed step at every scrape, with the labels linkerd's proxy gives them.
 */

export interface Prometheus {
  url: string;
  port: number;
  /** An instant query's vector, straight from the HTTP API (for waiting on scrapes). */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  /** Polls `promql` until it yields at least `min` samples whose value passes `ok`; bounded. */
  waitFor(promql: string, ok: (v: number) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  return { status: res.status, body: await res.text() };
}

export async function startPrometheus(targets: readonly string[], timeoutMs = 30_000): Promise<Prometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: linkerd-proxy',
      '    honor_labels: true',
      '    static_configs:',
      `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    if (stderr.length < 16_384) stderr += c.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited (${child.exitCode}): ${stderr}`);
    }
    try {
      if ((await get(`${url}/-/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready in ${timeoutMs} ms: ${stderr}`);
    }
    await sleep(100);
  }
  const query: Prometheus['query'] = async (promql) => {
    const { body } = await get(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    return (JSON.parse(body) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }).data.result;
  };
  return {
    url,
    port,
    query,
    async waitFor(promql, ok, waitMs = 30_000) {
      const end = Date.now() + waitMs;
      for (;;) {
        const result = await query(promql).catch(() => []);
        if (result.length > 0 && result.every((s) => ok(Number(s.value[1])))) return;
        if (Date.now() > end) throw new Error(`${promql}: not satisfied in ${waitMs} ms (last: ${JSON.stringify(result)})`);
        await sleep(250);
      }
    },
    stop,
  };
}

/** One exposed series: its name, labels, and how much it grows at each scrape. */
export interface GrowingSeries {
  name: string;
  labels: Record<string, string>;
  step: number;
}

/** A loopback proxy's metrics endpoint: each scrape adds `step` to every series first. */
export async function startExporter(series: readonly GrowingSeries[]): Promise<{ target: string; scrapes: () => number; close(): Promise<void> }> {
  let scrapes = 0;
  const values = series.map(() => 0);
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    // The first scrape shows zeros, so increase() has a start (and no extrapolation before it).
    if (scrapes > 0) series.forEach((s, i) => (values[i] = (values[i] ?? 0) + s.step));
    scrapes++;
    const lines = series.map((s, i) => {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',');
      return `${s.name}{${labels}} ${values[i] ?? 0}`;
    });
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(`${lines.join('\n')}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    target: `127.0.0.1:${port}`,
    scrapes: () => scrapes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
