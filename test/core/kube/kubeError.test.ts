import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { KubeError, type KubeErrorKind } from '../../../src/core/kube/kubeError.js';
import { createUnrelatedCaPem } from '../../support/apiserver-certs.js';
import { kubeGlobals, startApiServer, writeKubeconfig, type ApiServer } from '../../support/apiserver.js';

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function failure(p: Promise<unknown>): Promise<KubeError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(KubeError);
  expect(e).toBeInstanceOf(UserError);
  const k = e as KubeError;
  expect(k.message).not.toContain('\n');
  expect(k.message).not.toMatch(/\bat .*\.js:\d+/);
  return k;
}

function expectKind(e: KubeError, kind: KubeErrorKind, message: string | RegExp) {
  expect(e.kind).toBe(kind);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
}

describe('KubeError kinds and messages', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  });
  afterAll(() => server.stop());

  it('unreachable: connection refused names the URL and the cause', async () => {
    const port = await freePort();
    const file = writeKubeconfig(path.join(server.dir, 'refused.kubeconfig'), [
      { name: 'refused', server: `https://127.0.0.1:${port}`, caPem: server.caPem, token: server.token },
    ]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    const e = await failure(client.serverVersion());
    expectKind(e, 'unreachable', `Get "https://127.0.0.1:${port}/version": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    expect(e.url).toBe(`https://127.0.0.1:${port}/version`);
  });

  it('tls: a server certificate from another CA', async () => {
    const file = writeKubeconfig(path.join(server.dir, 'wrong-ca.kubeconfig'), [
      { name: 'wrong-ca', server: server.url, caPem: await createUnrelatedCaPem(), token: server.token },
    ]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    const e = await failure(client.serverVersion());
    expectKind(e, 'tls', `Get "${server.url}/version": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  });

  it('tls: a server name the certificate does not cover (kubeconfig tls-server-name)', async () => {
    const file = writeKubeconfig(path.join(server.dir, 'wrong-name.kubeconfig'), [
      { name: 'wrong-name', server: server.url, caPem: server.caPem, token: server.token, tlsServerName: 'kubernetes.example' },
    ]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    const e = await failure(client.serverVersion());
    expectKind(e, 'tls', `Get "${server.url}/version": tls: failed to verify certificate: x509: certificate is valid for localhost, not kubernetes.example`);
  });

  it('tls-server-name that the certificate covers is accepted', async () => {
    const file = writeKubeconfig(path.join(server.dir, 'good-name.kubeconfig'), [
      { name: 'good-name', server: server.url, caPem: server.caPem, token: server.token, tlsServerName: 'localhost' },
    ]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    client.close();
  });

  it('insecure-skip-tls-verify skips verification', async () => {
    const file = writeKubeconfig(path.join(server.dir, 'insecure.kubeconfig'), [
      { name: 'insecure', server: server.url, insecureSkipTlsVerify: true, token: server.token },
    ]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    client.close();
  });

  it('unauthorized: 401 without a valid token', async () => {
    const file = writeKubeconfig(path.join(server.dir, 'no-token.kubeconfig'), [{ name: 'no-token', server: server.url, caPem: server.caPem, token: 'wrong' }]);
    const client = await connectKube({ kubeconfig: file, asGroup: [] });
    const e = await failure(client.list('pods'));
    expectKind(e, 'unauthorized', 'Unauthorized');
    expect(e.status).toBe(401);
  });

  it('forbidden: 403 carries the server message', async () => {
    server.setDenials([{ verb: 'get', resource: 'secrets', namespace: 'linkerd' }]);
    try {
      const client = await connectKube(kubeGlobals(server, { as: 'jane' }));
      const e = await failure(client.get('secrets', 'linkerd-identity-issuer', 'linkerd'));
      expectKind(
        e,
        'forbidden',
        'secrets "linkerd-identity-issuer" is forbidden: User "jane" cannot get resource "secrets" in API group "" in the namespace "linkerd"',
      );
      expect(e.reason).toBe('Forbidden');
    } finally {
      server.setDenials([]);
    }
  });

  it('notfound: 404 with the real message shape', async () => {
    const client = await connectKube(kubeGlobals(server));
    expectKind(await failure(client.get('deployments', 'linkerd-destination', 'linkerd')), 'notfound', 'deployments.apps "linkerd-destination" not found');
    expectKind(await failure(client.get('pods', 'web', 'default')), 'notfound', 'pods "web" not found');
    expectKind(
      await failure(client.list({ group: 'policy.linkerd.io', version: 'v1beta3', plural: 'servers', kind: 'Server', namespaced: true })),
      'notfound',
      'the server could not find the requested resource',
    );
  });

  it('server: a 500 Status', async () => {
    const client = await connectKube(kubeGlobals(server));
    const clear = server.setFault('/api/v1/namespaces', { status: 500, message: 'Internal error occurred: etcdserver: leader changed' });
    try {
      const e = await failure(client.list('namespaces'));
      expectKind(e, 'server', 'Internal error occurred: etcdserver: leader changed');
      expect(e.status).toBe(500);
    } finally {
      clear();
    }
  });

  it('timeout: a request that never gets an answer, with a small deadline', async () => {
    const client = await connectKube(kubeGlobals(server), { timeoutMs: 200 });
    const clear = server.setFault('/version', 'hang');
    try {
      // The server never answers: only the client's deadline can end this, as the message says.
      const e = await failure(client.serverVersion());
      expectKind(e, 'timeout', `Get "${server.url}/version": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
    } finally {
      clear();
    }
  });

  it('timeout also applies to a slow server (latency beyond the deadline)', async () => {
    const client = await connectKube(kubeGlobals(server), { timeoutMs: 100 });
    server.setLatency(400);
    try {
      expect((await failure(client.list('pods'))).kind).toBe('timeout');
    } finally {
      server.setLatency(0);
    }
  });

  it('unreachable: a connection reset before any answer reads as EOF', async () => {
    const client = await connectKube(kubeGlobals(server));
    const clear = server.setFault('/version', 'reset');
    try {
      expectKind(await failure(client.serverVersion()), 'unreachable', `Get "${server.url}/version": EOF`);
    } finally {
      clear();
    }
  });
});
