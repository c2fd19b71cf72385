import http from 'node:http';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../core/errors.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { portForward } from '../../../core/kube/portForward.js';

/** A service mirror's /metrics: far below this; more is refused, not buffered. */
export const METRICS_LIMIT_BYTES = 4 * 1024 * 1024;

/** One sample of the Prometheus text format: name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments and unparsable lines skipped). */
export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m?.[1] || m[3] === undefined) continue;
    const value = Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) if (l[1]) labels[l[1]] = (l[2] ?? '').replace(/\\(.)/g, '$1');
    out.push({ name: m[1], labels, value });
  }
  return out;
}

/** The admin port of a service mirror pod: the first port of its controller container named `*-admin`. */
export function adminPortOf(pod: Pod): number {
  const name = pod.metadata?.name ?? '';
  const container = pod.spec?.containers.find((c) => c.name === 'service-mirror' || c.name === 'controller');
  if (!container) throw new UserError(`pod ${name} did not have a 'service-mirror' nor a 'controller' container`);
  const port = container.ports?.find((p) => p.name?.endsWith('-admin'));
  if (!port) throw new UserError(`pod ${name} has no admin port`);
  return port.containerPort;
}

/** The scrape got no answer within its deadline (the real `timed out waiting for metrics`). */
export class MetricsTimeout extends UserError {
  constructor() {
    super('timed out waiting for metrics');
  }
}

/** GET /metrics of the pod's admin port through a port-forward, within `timeoutMs` and the size limit. */
export async function scrapeMetrics(client: KubeClient, pod: Pod, timeoutMs: number): Promise<string> {
  const port = adminPortOf(pod);
  const start = Date.now();
  const stream = await portForward(client, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', port, timeoutMs);
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = http.get({ host: 'localhost', path: '/metrics', createConnection: () => stream, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > METRICS_LIMIT_BYTES) {
            req.destroy(new UserError(`metrics of ${pod.metadata?.name ?? ''}: more than ${METRICS_LIMIT_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new UserError(`GET /metrics: HTTP ${res.statusCode ?? 0}`));
          else resolve(Buffer.concat(chunks).toString('utf8'));
        });
        res.on('error', reject);
      });
      // The whole exchange, not only idle time: a port-forward stream has no socket timeout of its own.
      const timer = setTimeout(() => req.destroy(new MetricsTimeout()), Math.max(1, timeoutMs - (Date.now() - start)));
      req.on('close', () => clearTimeout(timer));
      req.on('timeout', () => req.destroy(new MetricsTimeout()));
      req.on('error', reject);
    });
  } finally {
    stream.destroy();
  }
}
