import http from 'node:http';
import { portForward } from './portForward.js';
import type { KubeClient } from './kubeClient.js';

/*
 * A plain HTTP GET to a pod's port through a port-forward (the metrics commands' admin ports):
 * bounded in time and in body size, so a hung or endless endpoint ends in an error.
 */

export interface PodGetOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export async function getThroughPortForward(kube: KubeClient, namespace: string, pod: string, port: number, path: string, o: PodGetOptions): Promise<string> {
  const stream = await portForward(kube, namespace, pod, port, o.timeoutMs);
  try {
    return await new Promise<string>((resolve, reject) => {
      // A port-forward stream is no socket: http's `timeout` never fires on it, so a timer bounds the whole exchange.
      const timer = setTimeout(() => req.destroy(new Error(`GET ${path}: no answer in ${o.timeoutMs} ms`)), o.timeoutMs);
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          f(v);
        };
      resolve = settle(resolve);
      reject = settle(reject);
      const req = http.request({ method: 'GET', path, host: 'localhost', port, createConnection: () => stream }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            // Refuse now: a destroyed response may still end (empty), which must not read as a success.
            reject(new Error(`the body of GET ${path} is larger than ${o.maxBytes} bytes`));
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`GET ${path}: HTTP ${res.statusCode ?? 0}`));
          else resolve(Buffer.concat(chunks).toString('utf8'));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    stream.destroy();
  }
}
