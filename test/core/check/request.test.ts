import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, checksFor, planInstall } from '../../../src/core/check/index.js';
import { parseValidity, prepareCheck } from '../../../src/core/check/request.js';
import { Selector, parseSelection } from '../../../src/core/check/selection.js';

const globals = { linkerdNamespace: 'linkerd', cniNamespace: 'linkerd-cni', asGroup: [] as string[], verbose: false };
const prepare = (flags: object, env: NodeJS.ProcessEnv = {}) => prepareCheck(flags, globals, { env });

describe('check flags', () => {
  it('rejects the combinations the real CLI rejects, with its words', () => {
    expect(() => prepare({ pre: true, proxy: true })).toThrow('Validation error when executing check command: --pre and --proxy flags are mutually exclusive');
    expect(() => prepare({ pre: true, crds: true })).toThrow('--pre and --crds flags are mutually exclusive');
    expect(() => prepare({ linkerdCniEnabled: true })).toThrow('--linkerd-cni-enabled can only be used with --pre');
    expect(() => prepare({ output: 'yaml' })).toThrow("Invalid output type 'yaml'. Supported output types are: json, table, short, junit");
    expect(() => prepare({ failOn: 'info' })).toThrow('--fail-on must be "error" or "warning"');
    expect(() => prepare({ wait: 'soon' })).toThrow('invalid argument "soon" for "--wait" flag: time: invalid duration "soon"');
  });

  it('maps flags to a request: mode, deadlines, versions and forwarded extension flags', () => {
    const { request, output } = prepare({ proxy: true, namespace: 'app', output: 'json', wait: '2m', timeout: '10s', certMinValidity: '30d', failOn: 'warning' });
    expect(output).toBe('json');
    expect(request).toMatchObject({ mode: 'proxy', dataPlaneNamespace: 'app', waitMs: 120_000, timeoutMs: 10_000, certMinValidityMs: 30 * 86_400_000, failOn: 'warning' });
    expect(request.versionCheck).toEqual({ url: 'https://versioncheck.linkerd.io/version.json', timeoutMs: 5_000 });
    expect(request.extensions?.forwardFlags).toEqual(['--linkerd-namespace=linkerd', '--verbose=false', '--namespace=app', '--proxy=true', '--wait=2m0s']);
  });

  it('lets the environment point versioncheck elsewhere (air-gapped mirrors, tests)', () => {
    const { request } = prepare({}, { LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:1/v.json', LINKERD_VERSIONCHECK_TIMEOUT: '1s' });
    expect(request.versionCheck).toEqual({ url: 'http://127.0.0.1:1/v.json', timeoutMs: 1_000 });
  });

  it('reads validity periods in days or Go durations', () => {
    expect(parseValidity('x', '30d')).toBe(30 * 86_400_000);
    expect(parseValidity('x', '1d12h')).toBe(36 * 3_600_000);
    expect(parseValidity('x', '720h')).toBe(30 * 86_400_000);
  });
});

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
