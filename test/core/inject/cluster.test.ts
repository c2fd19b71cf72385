import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInject, type InjectRequest } from '../../../src/core/inject/index.js';
import { resolveBaseValues } from '../../../src/core/inject/baseValues.js';
import { UserError } from '../../../src/core/errors.js';
import { KubeError } from '../../../src/core/kube/kubeError.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';
import { injectText } from '../../../src/cli/output/inject.js';
import { ANCHORS, M, ROOT, printed, type CommandResult } from './support.js';

const anchors = readFileSync(path.join(ROOT, ANCHORS), 'utf8');

const linkerdConfig = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config', namespace: 'linkerd' },
  data: {
    values: [
      'linkerdVersion: edge-26.8.5',
      'identityTrustAnchorsPEM: |',
      ...anchors
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
      'proxy:',
      '  logLevel: info',
      '  image:',
      '    version: edge-26.8.5',
      'someKeyFromANewerRelease: true',
    ].join('\n'),
  },
};

const shopNamespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'shop', annotations: { 'config.linkerd.io/proxy-cpu-request': '250m', 'config.linkerd.io/proxy-log-level': 'debug' } },
};

function request(server: ApiServer, o: Partial<InjectRequest> = {}): InjectRequest {
  return {
    inputs: [path.join(ROOT, M('list.yaml'))],
    manual: true,
    output: 'auto',
    flags: [],
    debugSidecar: false,
    base: { ignoreCluster: false, controlPlaneNamespace: 'linkerd', kube: kubeGlobals(server) },
    ...o,
  };
}

async function run(req: InjectRequest): Promise<CommandResult> {
  const result = await runInject(req);
  return printed(result, injectText(result, { verbose: false }));
}

describe('inject against a cluster', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: path.join(ROOT, 'fixtures/clusters/empty.yaml') });
    server.put(linkerdConfig, shopNamespace);
  });
  afterAll(() => server.stop());

  it('renders from the cluster’s linkerd-config: its anchors, proxy version and log level', async () => {
    const r = await run(request(server, { inputs: [path.join(ROOT, M('errors/no-token.yaml'))] }));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('image: cr.l5d.io/linkerd/proxy:edge-26.8.5');
    expect(r.stdout).toContain('linkerd.io/proxy-version: edge-26.8.5');
    expect(r.stdout).toContain('value: info,[{headers}]=off,[{request}]=off');
    expect(r.stdout).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('applies the namespace’s config annotations under the workload’s, like the proxy injector', async () => {
    const r = await run(request(server));
    expect(r.stdout).toMatch(/resources:\n\s+requests:\n\s+cpu: 250m/);
    expect(r.stdout).toContain('value: debug,[{headers}]=off,[{request}]=off');
  });

  it('writes override annotations relative to the cluster’s values, and a flag beats the namespace', async () => {
    const r = await run(
      request(server, {
        manual: false,
        flags: [
          { name: 'proxy-log-level', value: 'info' },
          { name: 'proxy-cpu-request', value: '1' },
        ],
      }),
    );
    expect(r.stdout).not.toContain('config.linkerd.io/proxy-log-level');
    expect(r.stdout).toContain('config.linkerd.io/proxy-cpu-request: "1"');
    const m = await run(request(server, { flags: [{ name: 'proxy-cpu-request', value: '1' }] }));
    expect(m.stdout).toMatch(/requests:\n\s+cpu: "1"/);
  });

  it('fails with linkerd’s own text when Linkerd is not installed', async () => {
    server.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    try {
      await expect(runInject(request(server))).rejects.toThrow(UserError);
      await runInject(request(server)).catch((e: unknown) => {
        if (!(e instanceof UserError)) throw e;
        expect(e.verbatim).toBe(true);
        expect(e.message).toBe('Cannot find Linkerd: configmaps "linkerd-config" not found\nValidate the install with: \'linkerd check\'\n');
      });
    } finally {
      server.put(linkerdConfig);
    }
  });
});

describe('resolveBaseValues without a cluster', () => {
  it('uses the defaults, with a note, when there is no kubeconfig at all', async () => {
    const b = await resolveBaseValues({
      ignoreCluster: false,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [] },
      connect: async () => {
        throw new KubeError('config', 'invalid configuration: no configuration has been provided');
      },
    });
    expect(b.origin).toBe('defaults');
    expect(b.notes).toEqual([
      'no Kubernetes configuration found (invalid configuration: no configuration has been provided); using default values (use --ignore-cluster or --values to choose explicitly)',
    ]);
  });

  it('fails like linkerd when a kubeconfig is there but its credentials fail (not only with --kubeconfig)', async () => {
    const err = await resolveBaseValues({
      ignoreCluster: false,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [] },
      connect: async () => {
        throw new KubeError('config', 'getting credentials: exec: executable false failed with exit code 1');
      },
    }).catch((e: unknown) => e);
    if (!(err instanceof UserError)) throw err;
    expect(err.verbatim).toBe(true);
    expect(err.message).toBe(
      "Cannot connect to Kubernetes: getting credentials: exec: executable false failed with exit code 1\nValidate the install with: 'linkerd check'\n",
    );
  });

  it('fails like linkerd when the cluster cannot be reached', async () => {
    const unreachable = async () => {
      throw new KubeError('unreachable', 'Get "https://127.0.0.1:1/version": dial tcp 127.0.0.1:1: connect: connection refused');
    };
    const err = await resolveBaseValues({
      ignoreCluster: false,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [], kubeconfig: 'x' },
      connect: unreachable,
    }).catch((e: unknown) => e);
    if (!(err instanceof UserError)) throw err;
    expect(err.verbatim).toBe(true);
    expect(err.message).toBe(
      'Cannot connect to Kubernetes: Get "https://127.0.0.1:1/version": dial tcp 127.0.0.1:1: connect: connection refused\nValidate the install with: \'linkerd check\'\n',
    );
  });

  it('reads --values as chart values or as a saved linkerd-config ConfigMap, and the anchors file on top', async () => {
    const fromConfigMap = await resolveBaseValues({
      ignoreCluster: true,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [] },
      valuesFile: path.join(ROOT, M('values/linkerd-config.yaml')),
    });
    expect(fromConfigMap.origin).toBe('values-file');
    expect(fromConfigMap.values.identityTrustAnchorsPEM).toBe(anchors);
    const chart = await resolveBaseValues({
      ignoreCluster: true,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [] },
      valuesFile: path.join(ROOT, M('values/cni.yaml')),
      cniEnabled: false,
    });
    expect(chart.values.cniEnabled).toBe(false);
    await expect(
      resolveBaseValues({ ignoreCluster: true, controlPlaneNamespace: 'linkerd', kube: { asGroup: [] }, trustAnchorsFile: path.join(ROOT, M('shop.yaml')) }),
    ).rejects.toThrow(/shop\.yaml: (not a PEM certificate|no certificates found)/);
  });
});
