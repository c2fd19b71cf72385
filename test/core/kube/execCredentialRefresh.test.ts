import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { isKubeError } from '../../../src/core/kube/kubeError.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';

/*
 * Exec credential plugins are run again when what they returned — a token or a client
 * certificate — is past its expirationTimestamp, or when the server answers 401 (client-go's
 * behaviour); a renewed certificate is presented on new connections. The plugin is a script that
 * counts its runs and prints the Nth prepared ExecCredential; the clock is virtual (only Date is
 * faked, so sockets and timers run as usual).
 */

const T0 = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;

let api: ApiServer;
let dir: string;
/** Client certificates by user, issued on the real clock (the server checks them on it). */
const issued = new Map<string, { certPem: string; keyPem: string }>();

beforeAll(async () => {
  api = await startApiServer({ clientCertificates: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-exec-refresh-'));
  for (const user of ['first', 'second', 'renewed']) issued.set(user, await api.issueClientCertificate(user));
});
afterAll(async () => {
  await api.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

type Status = Record<string, string>;

/** A kubeconfig whose user runs a plugin answering `answers[n]` on its n-th run (the last one after that). */
function pluginConfig(name: string, answers: Status[]): { kubeconfig: string; runs: () => number } {
  const home = fs.mkdtempSync(path.join(dir, `${name}-`));
  answers.forEach((status, i) => {
    fs.writeFileSync(
      path.join(home, `answer-${i + 1}.json`),
      JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status }),
    );
  });
  const count = path.join(home, 'runs');
  const script = path.join(home, 'plugin');
  fs.writeFileSync(
    script,
    [
      '#!/bin/sh',
      `n=$(( $(cat ${JSON.stringify(count)} 2>/dev/null || echo 0) + 1 ))`,
      `echo $n > ${JSON.stringify(count)}`,
      `[ $n -le ${answers.length} ] || n=${answers.length}`,
      `cat ${JSON.stringify(home)}/answer-$n.json`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const kubeconfig = path.join(home, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: api.url, 'certificate-authority-data': Buffer.from(api.caPem).toString('base64') } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: script } } }],
    }),
  );
  return { kubeconfig, runs: () => Number(fs.readFileSync(count, 'utf8')) };
}

function certificateAnswer(user: string, expires?: number): Status {
  const { certPem = '', keyPem = '' } = issued.get(user) ?? {};
  return { clientCertificateData: certPem, clientKeyData: keyPem, ...(expires === undefined ? {} : { expirationTimestamp: new Date(expires).toISOString() }) };
}

describe('exec plugin credentials are renewed', () => {
  it('a client certificate past its expirationTimestamp: the plugin runs again and new connections present the new one', async () => {
    const plugin = pluginConfig('cert', [certificateAnswer('first', T0 + 5 * MINUTE), certificateAnswer('second', T0 + 10 * MINUTE)]);
    const client = await connectKube({ kubeconfig: plugin.kubeconfig, asGroup: [] });
    try {
      api.resetRequests();
      await client.serverVersion();
      vi.setSystemTime(T0 + 4 * MINUTE);
      await client.serverVersion();
      expect(plugin.runs()).toBe(1);
      vi.setSystemTime(T0 + 6 * MINUTE);
      await client.serverVersion();
      await client.serverVersion();
      expect(plugin.runs()).toBe(2);
      expect(api.requests.map((r) => r.clientCert)).toEqual(['first', 'first', 'second', 'second']);
    } finally {
      client.close();
    }
  });

  it('a token past its expirationTimestamp: the plugin runs again', async () => {
    const plugin = pluginConfig('token', [
      { token: api.token, expirationTimestamp: new Date(T0 + MINUTE).toISOString() },
      { token: api.token, expirationTimestamp: new Date(T0 + 3 * MINUTE).toISOString() },
    ]);
    const client = await connectKube({ kubeconfig: plugin.kubeconfig, asGroup: [] });
    try {
      await client.serverVersion();
      vi.setSystemTime(T0 + 2 * MINUTE);
      await client.serverVersion();
      expect(plugin.runs()).toBe(2);
    } finally {
      client.close();
    }
  });

  it('a credential the server refuses (401): the request fails, the next one runs the plugin again', async () => {
    const plugin = pluginConfig('refused', [{ token: 'revoked' }, certificateAnswer('renewed')]);
    const client = await connectKube({ kubeconfig: plugin.kubeconfig, asGroup: [] });
    try {
      api.resetRequests();
      const refused = await client.serverVersion().catch((e: unknown) => e);
      expect(isKubeError(refused, 'unauthorized')).toBe(true);
      await client.serverVersion();
      await client.serverVersion();
      expect(plugin.runs()).toBe(2);
      expect(api.requests.map((r) => r.clientCert)).toEqual([undefined, 'renewed', 'renewed']);
    } finally {
      client.close();
    }
  });
});
