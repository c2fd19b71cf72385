import { describe, expect, it } from 'vitest';
import { GATEWAY_API_CRD_NAMES, LINKERD_CRD_EXPECTATIONS, renderCrds } from '../../../templates/crds/index.js';
import { CTX, GATEWAY_CRDS, LINKERD_CRDS, WITH_GATEWAY_API, type CrdRow } from './crd-table.js';

const summary = (crd: ReturnType<typeof renderCrds>[number]): CrdRow => ({
  name: crd.metadata?.name ?? '',
  group: crd.spec.group,
  kind: crd.spec.names.kind,
  versions: crd.spec.versions.map((v) => v.name),
  storage: crd.spec.versions.find((v) => v.storage)?.name ?? '',
});

describe('renderCrds (linkerd install --crds)', () => {
  it('renders the ten Linkerd CRDs of the spec table, in its order, by default', () => {
    expect(renderCrds(CTX).map(summary)).toEqual(LINKERD_CRDS);
  });

  it('leaves the Gateway API CRDs out when installGatewayAPI is false', () => {
    expect(renderCrds({ ...CTX, installGatewayAPI: false }).map(summary)).toEqual(LINKERD_CRDS);
  });

  it('inserts the four Gateway API CRDs after serviceprofiles when installGatewayAPI is true', () => {
    expect(renderCrds({ ...CTX, installGatewayAPI: true }).map(summary)).toEqual(WITH_GATEWAY_API);
  });

  it('renders apiextensions.k8s.io/v1 CustomResourceDefinitions of namespaced kinds', () => {
    for (const crd of renderCrds({ ...CTX, installGatewayAPI: true })) {
      expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
      expect(crd.kind).toBe('CustomResourceDefinition');
      expect(crd.spec.scope).toBe('Namespaced');
      expect(crd.metadata?.name).toBe(`${crd.spec.names.plural}.${crd.spec.group}`);
    }
  });

  it('serves every version and stores exactly one', () => {
    for (const crd of renderCrds({ ...CTX, installGatewayAPI: true })) {
      expect(crd.spec.versions.every((v) => v.served)).toBe(true);
      expect(crd.spec.versions.filter((v) => v.storage)).toHaveLength(1);
    }
  });

  it('stores the last listed version of every Linkerd CRD', () => {
    for (const crd of renderCrds(CTX)) {
      expect(crd.spec.versions.at(-1)?.storage, crd.metadata?.name).toBe(true);
    }
  });

  it('labels every CRD with the control-plane namespace and the linkerd-crds chart', () => {
    for (const crd of renderCrds({ ...CTX, namespace: 'mesh', installGatewayAPI: true })) {
      expect(crd.metadata?.labels).toEqual({
        'helm.sh/chart': 'linkerd-crds-2026.9.1',
        'linkerd.io/control-plane-ns': 'mesh',
      });
    }
  });

  it('replaces "+" in the chart version, as Helm chart labels cannot contain it', () => {
    const [crd] = renderCrds({ ...CTX, chartVersion: '0.0.0-dev+abc' });
    expect(crd?.metadata?.labels?.['helm.sh/chart']).toBe('linkerd-crds-0.0.0-dev_abc');
  });

  it('annotates the Linkerd CRDs only with linkerd.io/created-by', () => {
    for (const crd of renderCrds(CTX)) {
      expect(crd.metadata?.annotations).toEqual({ 'linkerd.io/created-by': 'linkerd/cli edge-26.9.1' });
    }
  });

  it('annotates the Gateway API CRDs with the v1.1.1 experimental bundle and keeps them on helm uninstall', () => {
    const gateway = renderCrds({ ...CTX, installGatewayAPI: true }).filter((crd) => GATEWAY_API_CRD_NAMES.includes(crd.metadata?.name ?? ''));
    expect(gateway).toHaveLength(4);
    for (const crd of gateway) {
      expect(crd.metadata?.annotations).toEqual({
        'api-approved.kubernetes.io': 'https://github.com/kubernetes-sigs/gateway-api/pull/2997',
        'gateway.networking.k8s.io/bundle-version': 'v1.1.1',
        'gateway.networking.k8s.io/channel': 'experimental',
        'linkerd.io/created-by': 'linkerd/cli edge-26.9.1',
        'helm.sh/resource-policy': 'keep',
      });
      expect(crd.spec.names.categories).toEqual(['gateway-api']);
    }
  });

  it('is pure: two renders with the same context are deep-equal', () => {
    const ctx = { ...CTX, installGatewayAPI: true };
    expect(renderCrds(ctx)).toEqual(renderCrds(ctx));
  });

  it('returns fresh objects on every call, so callers can mutate their copy', () => {
    const first = renderCrds(CTX);
    first[0].metadata!.labels!['extra'] = 'x';
    expect(renderCrds(CTX)[0]?.metadata?.labels).not.toHaveProperty('extra');
  });
});

describe('GATEWAY_API_CRD_NAMES', () => {
  it('names the four Gateway API CRDs Linkerd can install, in render order', () => {
    expect(GATEWAY_API_CRD_NAMES).toEqual(GATEWAY_CRDS.map((row) => row.name));
  });
});

describe('LINKERD_CRD_EXPECTATIONS (check: control plane CustomResourceDefinitions exist)', () => {
  it('lists every Linkerd CRD with its last listed version, and no Gateway API CRD', () => {
    expect(LINKERD_CRD_EXPECTATIONS).toEqual(LINKERD_CRDS.map((row) => ({ name: row.name, lastVersion: row.versions.at(-1) })));
  });

  it('matches the spec table literally', () => {
    expect(LINKERD_CRD_EXPECTATIONS.map((e) => `${e.name}@${e.lastVersion}`)).toEqual([
      'authorizationpolicies.policy.linkerd.io@v1alpha1',
      'egressnetworks.policy.linkerd.io@v1alpha1',
      'httplocalratelimitpolicies.policy.linkerd.io@v1alpha1',
      'httproutes.policy.linkerd.io@v1beta3',
      'meshtlsauthentications.policy.linkerd.io@v1alpha1',
      'networkauthentications.policy.linkerd.io@v1alpha1',
      'serverauthorizations.policy.linkerd.io@v1beta1',
      'servers.policy.linkerd.io@v1beta3',
      'serviceprofiles.linkerd.io@v1alpha2',
      'externalworkloads.workload.linkerd.io@v1beta1',
    ]);
  });
});
