import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKubeconfigText, resolveKubeconfigText } from '../../../src/core/kube/kubeconfigText.js';
import { isKubeError } from '../../../src/core/kube/kubeError.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';

/*
 * A kubeconfig held in memory (a Link's credentials Secret): a client from it talks to the
 * cluster it names; it may not name files of this machine; its exec plugin runs under our deadline.
 */

const SOURCE = 'secret linkerd-multicluster/cluster-credentials-east';
let api: ApiServer;
let dir: string;

beforeAll(async () => {
  api = await startApiServer({ token: 'remote-token' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-kubeconfig-text-'));
});
afterAll(async () => {
  await api.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function config(user: Record<string, unknown>, cluster: Record<string, unknown> = {}, current = 'east'): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'east', cluster: { server: api.url, 'certificate-authority-data': Buffer.from(api.caPem).toString('base64'), ...cluster } }],
    contexts: [{ name: 'east', context: { cluster: 'east', user: 'remote' } }],
    users: [{ name: 'remote', user }],
    'current-context': current,
  });
}

describe('a client from an in-memory kubeconfig', () => {
  it('reaches the cluster the text names, with its token', async () => {
    const client = await connectKubeconfigText(config({ token: 'remote-token' }), SOURCE, { timeoutMs: 5_000 });
    try {
      expect((await client.serverVersion()).gitVersion).toMatch(/^v1\./);
      expect(client.contextName).toBe('east');
    } finally {
      client.close();
    }
  });

  it.each([
    ['certificate-authority', {}, { 'certificate-authority': '/etc/ssl/certs/ca.pem' }, 'cluster east: certificate-authority'],
    ['client-key', { 'client-key': 'key.pem', 'client-certificate-data': 'eA==' }, {}, 'user remote: client-key'],
    ['token-file', { 'token-file': '/dev/zero' }, {}, 'user remote: token-file'],
  ])('refuses a %s naming a file of this machine', async (_key, user, cluster, named) => {
    await expect(resolveKubeconfigText(config(user, cluster), SOURCE)).rejects.toThrow(
      `${SOURCE}: a kubeconfig held in a Secret may not name files of this machine (${named})`,
    );
  });

  it('names a missing context, unparsable text and an oversized kubeconfig, each as a config error', async () => {
    const missing = await resolveKubeconfigText(config({ token: 't' }, {}, 'west'), SOURCE).catch((e: unknown) => e);
    expect(isKubeError(missing, 'config')).toBe(true);
    expect((missing as Error).message).toBe(`${SOURCE}: invalid configuration: context was not found for specified context: west`);
    await expect(resolveKubeconfigText('clusters: [', SOURCE)).rejects.toThrow(new RegExp(`^${SOURCE}: unable to parse kubeconfig: `));
    await expect(resolveKubeconfigText(`#${'x'.repeat(17 * 1024 * 1024)}`, SOURCE)).rejects.toThrow(/larger than the 16 MiB limit/);
  });

  it('runs its exec plugin under the request deadline: a plugin that never answers is killed, not waited for', async () => {
    const script = path.join(dir, 'slow-plugin');
    fs.writeFileSync(script, '#!/bin/sh\nsleep 30\n', { mode: 0o755 });
    const e = await connectKubeconfigText(
      config({ exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: script, interactiveMode: 'Never' } }),
      SOURCE,
      {
        timeoutMs: 500,
      },
    ).catch((err: unknown) => err);
    expect(isKubeError(e)).toBe(true);
    expect((e as Error).message).toBe(`getting credentials: exec: executable ${script} did not finish within 0.5s; it was stopped`);
  });
});
