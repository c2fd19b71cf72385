import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallCluster } from '../../../src/core/install/cluster.js';
import { readRotationState } from '../../../src/core/identity/rotationState.js';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { KubeError } from '../../../src/core/kube/kubeError.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';
import { servedCluster } from '../identity/support.js';

/*
 * Issue 24 item 6: objects of the wrong shape from the API server are one-line errors naming the
 * object, not TypeErrors ("This is a bug") in install, upgrade and identity rotate status.
 */

const node = (name: string, nodeInfo?: unknown) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  ...(nodeInfo === undefined ? {} : { status: { nodeInfo } }),
});
const pod = (name: string, spec: unknown) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'emojivoto', labels: { 'linkerd.io/control-plane-ns': 'linkerd' } },
  spec,
});
const proxy = (env: unknown) => ({ name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:edge-26.9.1', env });

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => new Error('no error'),
    (err: unknown) => err as Error,
  );
  expect(e).toBeInstanceOf(KubeError);
  return e;
}

describe('install and upgrade read nodes and pods through the schemas', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  });
  afterAll(() => server.stop());

  const cluster = async () => InstallCluster.of(await connectKube(kubeGlobals(server)));

  it('a Node without status.nodeInfo.containerRuntimeVersion is not a Docker node', async () => {
    server.put(node('bare'), node('no-runtime', { kubeletVersion: 'v1.34.1' }));
    const c = await cluster();
    try {
      await expect(c.assertNoDockerNodes()).resolves.toBeUndefined();
    } finally {
      c.close();
    }
  });

  it('a Node whose containerRuntimeVersion is a number is an error naming the node', async () => {
    server.put(node('numbered', { containerRuntimeVersion: 5 }));
    const c = await cluster();
    try {
      expect((await failure(c.assertNoDockerNodes())).message).toBe(
        'Node numbered from the API server is not a valid Node: status.nodeInfo.containerRuntimeVersion: expected string, received number',
      );
    } finally {
      c.close();
      server.remove('v1', 'Node', 'numbered');
    }
  });

  it.each([
    ['containers is not a list', { containers: { name: 'app' } }, 'spec.containers: expected array, received object'],
    ['containers is [null]', { containers: [null] }, 'spec.containers[0]: expected object, received null'],
    ['env is not a list', { containers: [proxy({ name: 'X' })] }, 'spec.containers[0].env: expected array, received object'],
    [
      'an env value is an object',
      { containers: [proxy([{ name: 'X', value: { a: 1 } }])] },
      'spec.containers[0].env[0].value: expected string, received object',
    ],
  ])('a meshed Pod whose %s is an error naming the pod', async (_what, spec, message) => {
    server.put(pod('bad', spec));
    const c = await cluster();
    try {
      expect((await failure(c.meshedPods())).message).toBe(`Pod emojivoto/bad from the API server is not a valid Pod: ${message}`);
    } finally {
      c.close();
      server.remove('v1', 'Pod', 'bad', 'emojivoto');
    }
  });

  it('null fields read as absent, as Go decodes them', async () => {
    const { podTrustReader } = await import('../../../src/core/identity/podTrust.js');
    const { proxyVersionOf } = await import('../../../src/core/kube/proxyVersion.js');
    const anchors = { name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS', value: null };
    server.put(
      pod('nulls', {
        containers: [
          { name: 'linkerd-proxy', image: null, env: [anchors] },
          { name: 'app', env: null },
        ],
        initContainers: null,
      }),
    );
    const c = await cluster();
    try {
      const [p] = await c.meshedPods();
      expect(p && proxyVersionOf(p)).toBe('');
      expect(p && podTrustReader([])(p)).toMatchObject({ name: 'nulls', anchors: { known: false } });
    } finally {
      c.close();
      server.remove('v1', 'Pod', 'nulls', 'emojivoto');
    }
  });
});

describe('identity rotate status reads pods through the schemas', () => {
  let server: ApiServer;
  beforeAll(async () => {
    ({ server } = await servedCluster());
  });
  afterAll(() => server.stop());

  it('a meshed pod whose trust-anchors env value is an object is an error naming the pod', async () => {
    server.put(pod('hostile', { containers: [proxy([{ name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS', value: { pem: 'x' } }])] }));
    expect((await failure(readRotationState(kubeGlobals(server), 'linkerd'))).message).toBe(
      'Pod emojivoto/hostile from the API server is not a valid Pod: spec.containers[0].env[0].value: expected string, received object',
    );
  });
});

describe('upgrade --from-manifests reads Nodes of any shape', () => {
  it('a Node without nodeInfo, or with a number for its runtime, is not a Docker node', async () => {
    const { ManifestState } = await import('../../../src/core/install/upgradeSource.js');
    const state = new ManifestState([node('bare'), node('numbered', { containerRuntimeVersion: 5 })]);
    await expect(state.assertNoDockerNodes()).resolves.toBeUndefined();
    await expect(new ManifestState([node('d', { containerRuntimeVersion: 'docker://24.0' })]).assertNoDockerNodes()).rejects.toThrow(
      /docker container runtime/,
    );
  });
});
