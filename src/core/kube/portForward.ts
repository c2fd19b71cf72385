import { Duplex } from 'node:stream';
import WebSocket from 'ws';
import { KubeError } from './kubeError.js';
import type { KubeClient } from './kubeClient.js';

/** The channel protocol of the API server's port-forward endpoint over WebSocket (what client-node speaks). */
export const PORT_FORWARD_PROTOCOL = 'v4.channel.k8s.io';

/** Largest error-channel message kept; the API server's are one line. */
const MAX_ERROR_BYTES = 4096;

/**
 * Opens a port-forward to `port` of a pod through the API server and returns it as a byte stream.
 * Frames carry a channel byte (0 data, 1 error for the first port); the first frame of each
 * channel starts with the port number (2 bytes, little-endian), which is not data.
 */
export async function portForward(client: KubeClient, namespace: string, pod: string, port: number, timeoutMs = client.timeoutMs): Promise<Duplex> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/portforward?ports=${port}`;
  const target = await client.upgradeTarget(path);
  const ws = new WebSocket(target.url, [PORT_FORWARD_PROTOCOL], {
    agent: target.agent,
    headers: target.headers as Record<string, string>,
    handshakeTimeout: timeoutMs,
    maxPayload: 1024 * 1024,
  });
  const where = `port-forward to ${namespace}/${pod}:${port}`;
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (chunks.reduce((n, x) => n + x.length, 0) < MAX_ERROR_BYTES) chunks.push(c);
      });
      res.on('end', () => {
        let message = Buffer.concat(chunks).toString('utf8').trim();
        try {
          message = (JSON.parse(message) as { message?: string }).message ?? message;
        } catch {
          // not a Status
        }
        reject(
          new KubeError(
            res.statusCode === 404 ? 'notfound' : res.statusCode === 403 ? 'forbidden' : 'server',
            `${where}: ${message || `HTTP ${res.statusCode ?? 0}`}`,
            { status: res.statusCode },
          ),
        );
      });
    });
    ws.once('error', (e) => reject(new KubeError('unreachable', `${where}: ${e.message}`, { cause: e })));
  });

  const seenPrefix = new Set<number>();
  let errorText = '';
  const stream = new Duplex({
    write(chunk: Buffer, _enc, done) {
      ws.send(Buffer.concat([Buffer.from([0]), chunk]), done);
    },
    final(done) {
      ws.close();
      done();
    },
    read() {},
    destroy(err, done) {
      ws.terminate();
      done(err);
    },
  });
  ws.on('message', (data: Buffer) => {
    const channel = data[0];
    if (channel === undefined) return;
    let payload = data.subarray(1);
    if (!seenPrefix.has(channel)) {
      seenPrefix.add(channel);
      payload = payload.subarray(2);
    }
    if (channel === 0) stream.push(payload);
    else if (channel === 1 && errorText.length < MAX_ERROR_BYTES) errorText += payload.toString('utf8');
  });
  ws.on('close', () => {
    if (errorText) stream.destroy(new KubeError('server', `${where}: ${errorText.trim()}`));
    else stream.push(null);
  });
  ws.on('error', (e) => stream.destroy(new KubeError('unreachable', `${where}: ${e.message}`, { cause: e })));
  return stream;
}
