import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, CATEGORIES, checksFor, loadCheckRegistry, modesOf, planInstall, CORE_CHECK_FAMILY } from '../../../src/core/check/index.js';
import { CHECK_FAMILIES } from '../../../src/families/checkFamilies.js';
import { Selector, parseSelection } from '../../../src/core/check/selection.js';

describe('check selection', () => {
  it('accepts ids in any case and category names, comma-separated or repeated', () => {
    expect(parseSelection(['l5d1804,linkerd-version'], ['L5D2402'])).toEqual({ skip: ['L5D1804', 'linkerd-version'], only: ['L5D2402'] });
  });

  it('refuses unknown ids and malformed values', () => {
    expect(() => parseSelection(['L5D9999'], [])).toThrow('unknown check id "L5D9999" in --skip (run linkerd check --list)');
    expect(() => parseSelection([], ['Not A Category'])).toThrow('invalid value "Not A Category" for --only');
  });

  it('selects by id and category and remembers tokens that matched nothing', () => {
    const s = new Selector(parseSelection(['linkerd-version', 'linkerd-viz-typo'], []));
    expect(s.selected({ id: 'L5D2101', category: 'linkerd-version' })).toBe(false);
    expect(s.selected({ id: 'L5D1001', category: 'kubernetes-api' })).toBe(true);
    expect(s.unmatched()).toEqual(['linkerd-viz-typo']);
  });
});

describe('the check registry', () => {
  it('has unique, stable ids of the form L5D<category code><nn>', () => {
    const ids = ALL_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^L5D\d{4}$/);
  });

  it('runs the categories of each mode in the real global order', () => {
    const categories = (mode: Parameters<typeof checksFor>[0]) => [...new Set(checksFor(mode).map((c) => c.category))];
    expect(categories('proxy')).toEqual([
      'kubernetes-api',
      'kubernetes-version',
      'gateway-api-crd',
      'linkerd-existence',
      'linkerd-config',
      'linkerd-cni-plugin',
      'linkerd-identity',
      'linkerd-webhooks-and-apisvc-tls',
      'linkerd-identity-data-plane',
      'linkerd-version',
      'linkerd-control-plane-proxy',
      'linkerd-data-plane',
      'linkerd-ha-checks',
    ]);
    expect(categories('pre')).toEqual(['kubernetes-api', 'kubernetes-version', 'gateway-api-crd', 'pre-kubernetes-setup', 'linkerd-version']);
    expect(categories('crds')).toEqual(['kubernetes-api', 'kubernetes-version', 'gateway-api-crd', 'linkerd-crd', 'linkerd-version']);
    expect(categories('default')).toContain('control-plane-version');
    expect(categories('default')).not.toContain('linkerd-data-plane');
  });
});

describe('the core check family', () => {
  it('keeps the ids and codes the categories always had', () => {
    expect(CATEGORIES.map((c) => `${c.code} ${c.id}`)).toEqual([
      '10 kubernetes-api',
      '11 kubernetes-version',
      '12 gateway-api-crd',
      '13 pre-kubernetes-setup',
      '14 linkerd-crd',
      '15 linkerd-existence',
      '16 linkerd-config',
      '17 linkerd-cni-plugin',
      '18 linkerd-identity',
      '19 linkerd-webhooks-and-apisvc-tls',
      '20 linkerd-identity-data-plane',
      '21 linkerd-version',
      '22 control-plane-version',
      '23 linkerd-control-plane-proxy',
      '24 linkerd-data-plane',
      '25 linkerd-opaque-ports-definition',
      '26 linkerd-ha-checks',
      '27 linkerd-extension-checks',
    ]);
    for (const c of CORE_CHECK_FAMILY.categories) for (const check of c.checks) expect(check.id.slice(3, 5)).toBe(String(c.code));
  });

  it('checks the CNI plugin before installing only with --linkerd-cni-enabled, and lists the modes each check runs in', () => {
    const cni = (o: { cniEnabled?: boolean }) => checksFor('pre', o).filter((c) => c.category === 'linkerd-cni-plugin').length;
    expect(cni({})).toBe(0);
    expect(cni({ cniEnabled: true })).toBe(6);
    const byId = (id: string) => ALL_CHECKS.find((c) => c.id === id)!;
    expect(modesOf(byId('L5D1701'))).toEqual(['default', 'pre', 'proxy']);
    expect(modesOf(byId('L5D1001'))).toEqual(['default', 'pre', 'proxy', 'crds']);
    expect(modesOf(byId('L5D2201'))).toEqual(['default']);
    expect(modesOf(byId('L5D2401'))).toEqual(['proxy']);
  });

  it('registers every family of src/families/checkFamilies.ts beside it without a collision', async () => {
    const registry = await loadCheckRegistry([CORE_CHECK_FAMILY], CHECK_FAMILIES);
    expect(registry.families.map((f) => f.name)).toEqual(['core', ...(await Promise.all(CHECK_FAMILIES.map(async (e) => (await e.load()).name)))]);
  });
});

describe('what --pre verifies', () => {
  it('is derived from the objects the install renders', () => {
    const plan = planInstall([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'linkerd-linkerd-identity' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'linkerd-identity', namespace: 'linkerd' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'linkerd-identity', namespace: 'linkerd' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'linkerd-destination', namespace: 'linkerd' } },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'linkerd-destination', namespace: 'linkerd' } },
      { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata: { name: 'linkerd-admin', namespace: 'linkerd' } },
    ]);
    expect(plan.clusterScoped.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(['Namespace/linkerd', 'ClusterRole/linkerd-linkerd-identity']);
    expect(plan.namespaced).toEqual([
      { group: '', resource: 'serviceaccounts', kind: 'ServiceAccount' },
      { group: 'apps', resource: 'deployments', kind: 'Deployment' },
      { group: 'policy', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget' },
      { group: 'policy.linkerd.io', resource: 'servers', kind: 'Server' },
    ]);
  });
});
