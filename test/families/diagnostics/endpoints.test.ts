import * as grpc from '@grpc/grpc-js';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGetDestination, encodeUpdate, type GetDestination, type Update } from '../../../src/families/diagnostics/proto/destination.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';

// The real command's golden data: two pods of emojivoto, IPs 16909060 and 84281096, port 8080.
const addr = (pod: string, ipv4: number) => ({ ip: { ipv4 }, port: 8080, weight: 0, metricLabels: { pod } });
const UPDATES: Record<string, Update> = {
  'emoji-svc.emojivoto.svc.cluster.local:8080': {
    add: { addrs: [addr('emoji-6bf9f47bd5-jjcrl', 16909060)], metricLabels: { service: 'emoji-svc', namespace: 'emojivoto' } },
  },
  'voting-svc.emojivoto2.svc.cluster.local:8080': {
    add: { addrs: [addr('voting-7bf9f47bd5-jjdrl', 84281096)], metricLabels: { service: 'voting-svc', namespace: 'emojivoto2' } },
  },
};

describe('linkerd diagnostics endpoints (loopback gRPC destination server)', () => {
  let server: grpc.Server;
  let address: string;
  let api: ApiServer;
  const asked: GetDestination[] = [];
  beforeAll(async () => {
    server = new grpc.Server();
    server.register(
      '/io.linkerd.proxy.destination.Destination/Get',
      (call: grpc.ServerWritableStream<GetDestination, Update>) => {
        asked.push(call.request);
        const u = UPDATES[call.request.path];
        if (!u) {
          call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: `Invalid authority: ${call.request.path}` });
          return;
        }
        call.write(u);
        call.end();
      },
      encodeUpdate,
      (b: Buffer) => decodeGetDestination(b),
      'serverStream',
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    address = `127.0.0.1:${port}`;
    api = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'linkerd-destination-5d8',
            namespace: 'linkerd',
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'linkerd-destination', uid: 'd' }],
          },
          spec: { selector: { matchLabels: { a: 'b' } } },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'linkerd-destination-5d8-x',
            namespace: 'linkerd',
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'linkerd-destination-5d8', uid: 'r' }],
          },
          spec: { containers: [{ name: 'destination', image: 'x' }] },
          status: { phase: 'Running' },
        },
      ],
      portForward: (_ns, _pod, p) => (p === 8086 ? { host: '127.0.0.1', port } : undefined),
    });
  });
  afterAll(async () => {
    await api.stop();
    server.forceShutdown();
  });

  it('prints one table per namespace, the namespace column padded across tables (through a port-forward)', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'endpoints', '--token', 'ns:emojivoto', ...Object.keys(UPDATES)]);
    expect(r.stdout).toBe(
      [
        'NAMESPACE    IP        PORT   POD                       SERVICE',
        'emojivoto    1.2.3.4   8080   emoji-6bf9f47bd5-jjcrl    emoji-svc.emojivoto',
        '',
        'NAMESPACE    IP        PORT   POD                       SERVICE',
        'emojivoto2   5.6.7.8   8080   voting-7bf9f47bd5-jjdrl   voting-svc.emojivoto2',
        '',
      ].join('\n'),
    );
    expect(asked.map((a) => [a.scheme, a.contextToken])).toContainEqual(['http:', 'ns:emojivoto']);
  });

  it('prints -o json in the real key order (with --api-addr)', async () => {
    const r = await runCli(['--api-addr', address, 'dg', 'ep', '-o', 'json', 'emoji-svc.emojivoto.svc.cluster.local:8080']);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        namespace: 'emojivoto',
        ip: '1.2.3.4',
        port: 8080,
        pod: 'emoji-6bf9f47bd5-jjcrl',
        service: 'emoji-svc.emojivoto',
        weight: 0,
        labels: { pod: 'emoji-6bf9f47bd5-jjcrl' },
      },
    ]);
    expect(Object.keys(JSON.parse(r.stdout)[0])).toEqual(['namespace', 'ip', 'port', 'pod', 'service', 'weight', 'labels']);
  });

  it('reports the server error of an authority as the real command', async () => {
    const r = await runCli(['--api-addr', address, 'diagnostics', 'endpoints', 'nope']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Destination API error: Invalid authority: nope\n']);
  });

  it('words a refused connection as grpc-go does: the status message alone, as the real command prints it', async () => {
    const port = await refusedLoopbackPort();
    const r = await runCli(['--api-addr', `127.0.0.1:${port}`, 'diagnostics', 'endpoints', 'emoji-svc.emojivoto.svc.cluster.local:8080']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `Destination API error: connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:${port}: connect: connection refused"\n`,
    ]);
  });

  it('diagnostics profile prints the whole grpc-go status error for a refused connection', async () => {
    const port = await refusedLoopbackPort();
    const r = await runCli(['--api-addr', `127.0.0.1:${port}`, 'diagnostics', 'profile', '10.0.0.1:8080']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `Destination API error: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:${port}: connect: connection refused"\n`,
    ]);
  });

  it('refuses another output', async () => {
    const r = await runCli(['--api-addr', address, 'diagnostics', 'endpoints', '-o', 'yaml', 'x']);
    expect(r.stderr).toContain('--output currently only supports table and json');
  });
});

/** A loopback port nothing listens on: bound by the OS, then closed. */
function refusedLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
