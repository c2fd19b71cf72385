import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { describe, expect, it } from 'vitest';
import { GATEWAY_API_INSTALL_URL, decideGatewayApi, gatewayApiState } from '../../../src/core/mesh/gatewayApi.js';
import { runCli } from '../../support/cli.js';
import { crdsChart } from '../../../src/core/values/crdsChart.js';
import { renderCrds, type CrdsValues } from '../../../templates/crds/index.js';

const crd = (name: string, versions: string[], annotations?: Record<string, string>): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: {
    group: 'gateway.networking.k8s.io',
    names: { kind: 'X', plural: name.split('.')[0] },
    scope: 'Namespaced',
    versions: versions.map((v) => ({ name: v, served: true, storage: v === versions[0] })),
  },
});

describe('Gateway API CRD detection', () => {
  it('classifies absent, Linkerd-managed and external CRDs', () => {
    expect(gatewayApiState([])).toBe('absent');
    expect(gatewayApiState([crd('httproutes.gateway.networking.k8s.io', ['v1'], { 'linkerd.io/created-by': 'linkerd/cli x' })])).toBe('linkerd');
    expect(gatewayApiState([crd('grpcroutes.gateway.networking.k8s.io', ['v1'])])).toBe('external');
  });

  it('requires v1 of external CRDs', () => {
    expect(() => gatewayApiState([crd('httproutes.gateway.networking.k8s.io', ['v1beta1'])])).toThrow(
      'the httproutes.gateway.networking.k8s.io CRD is missing the v1 version, please upgrade to Gateway API v1.1.1 or later',
    );
  });
});

describe('Gateway API CRD decision', () => {
  it('reports missing Gateway API CRDs the way the real CLI does', () => {
    expect(() => decideGatewayApi('absent', {})).toThrow(/Gateway API CRDs must be installed/);
    try {
      decideGatewayApi('absent', {});
    } catch (e) {
      expect((e as { hint?: string }).hint).toContain(
        'kubectl apply --server-side -f https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.1.1/standard-install.yaml',
      );
    }
  });

  it('keeps providing Linkerd-managed CRDs by default, and refuses to drop them', () => {
    expect(decideGatewayApi('linkerd', {})).toEqual({ httpRoutes: true, tlsRoutes: true, tcpRoutes: true });
    expect(() => decideGatewayApi('linkerd', { installGatewayAPI: false })).toThrow(
      'Linkerd is providing GW API, but your current install configuration will remove it',
    );
  });

  it('refuses to install over external CRDs', () => {
    expect(decideGatewayApi('external', {})).toEqual({ httpRoutes: false, tlsRoutes: false, tcpRoutes: false });
    expect(() => decideGatewayApi('external', { installGatewayAPI: true })).toThrow(
      'Linkerd cannot install the Gateway API CRDs because they are already installed by an external source. Please set `installGatewayAPI` to `false`.',
    );
  });

  it('lets the per-kind switches override installGatewayAPI; without a cluster nothing is checked', () => {
    expect(decideGatewayApi('absent', { enableHttpRoutes: true })).toEqual({ httpRoutes: true, tlsRoutes: false, tcpRoutes: false });
    expect(decideGatewayApi(undefined, {})).toEqual({ httpRoutes: false, tlsRoutes: false, tcpRoutes: false });
    expect(decideGatewayApi(undefined, { installGatewayAPI: true, enableTcpRoutes: false })).toEqual({ httpRoutes: true, tlsRoutes: true, tcpRoutes: false });
  });

  it('the CRD chart renders what its switches select, always keeping Linkerd’s own ten', async () => {
    const { crds } = await crdsChart.templates();
    const ctx = { namespace: 'linkerd', cliVersion: 'v', chartVersion: 'c' };
    const names = (v: CrdsValues) => crds(v, ctx).map((c) => c.metadata!.name);
    expect(names({ installGatewayAPI: false, enableHttpRoutes: false, enableTlsRoutes: false, enableTcpRoutes: false })).toHaveLength(10);
    expect(names({ installGatewayAPI: false, enableHttpRoutes: true, enableTlsRoutes: false, enableTcpRoutes: false })).toEqual(
      expect.arrayContaining(['httproutes.gateway.networking.k8s.io', 'grpcroutes.gateway.networking.k8s.io']),
    );
    expect(names({ installGatewayAPI: false, enableHttpRoutes: true, enableTlsRoutes: true, enableTcpRoutes: true })).toHaveLength(14);
    // An absent switch follows installGatewayAPI; all fourteen keep the order of the full render.
    const all = renderCrds({ ...ctx, installGatewayAPI: true }).map((c) => c.metadata!.name);
    expect(names({ installGatewayAPI: true })).toEqual(all);
    expect(names({ installGatewayAPI: true, enableTlsRoutes: false })).toEqual(all.filter((n) => n !== 'tlsroutes.gateway.networking.k8s.io'));
  });
});

describe('one Gateway API version', () => {
  it("check --pre's hint and install's hint name the release of the CRDs installGatewayAPI=true renders", async () => {
    const r = await runCli(['install', '--crds', '--ignore-cluster', '--set', 'installGatewayAPI=true', '-o', 'json']);
    expect(r.code).toBe(0);
    const rendered = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as CustomResourceDefinition)
      .filter((c) => c.spec.group === 'gateway.networking.k8s.io');
    expect(rendered.map((c) => c.metadata?.name).sort()).toContain('httproutes.gateway.networking.k8s.io');
    const versions = new Set(rendered.map((c) => c.metadata?.annotations?.['gateway.networking.k8s.io/bundle-version']));
    expect(versions.size).toBe(1);
    const [version] = [...versions];
    expect(GATEWAY_API_INSTALL_URL).toBe(`https://github.com/kubernetes-sigs/gateway-api/releases/download/${version ?? ''}/standard-install.yaml`);
  });
});
