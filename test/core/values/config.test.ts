import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyFlags,
  composeValues,
  defaultValues,
  linkerdConfigValues,
  mergeValues,
  overridesDiff,
  parseClusterValues,
  parseValuesYaml,
} from '../../../src/core/values/index.js';

describe('linkerdConfigValues (ConfigMap linkerd-config)', () => {
  const v = defaultValues();
  v.identity.issuer.tls = { crtPEM: 'CERT', keyPEM: 'ISSUER KEY' };
  v.proxyInjector.keyPEM = 'INJECTOR KEY';
  v.proxyInjector.crtPEM = 'INJECTOR CERT';
  v.profileValidator.keyPEM = 'SP KEY';
  v.policyValidator.keyPEM = 'POLICY KEY';
  const stored = linkerdConfigValues(v) as ReturnType<typeof defaultValues>;

  it('removes the issuer and webhook private keys', () => {
    expect(stored.identity.issuer.tls).toEqual({ crtPEM: 'CERT' });
    expect('keyPEM' in stored.proxyInjector).toBe(false);
    expect('keyPEM' in stored.profileValidator).toBe(false);
    expect('keyPEM' in stored.policyValidator).toBe(false);
  });

  it('keeps the public certificates', () => {
    expect(stored.proxyInjector.crtPEM).toBe('INJECTOR CERT');
  });

  it('defaults identityTrustDomain to clusterDomain', () => {
    expect(stored.identityTrustDomain).toBe('cluster.local');
    const custom = defaultValues();
    custom.identityTrustDomain = 'td.example';
    expect(linkerdConfigValues(custom).identityTrustDomain).toBe('td.example');
  });

  it('does not modify its input', () => {
    expect(v.identity.issuer.tls.keyPEM).toBe('ISSUER KEY');
    expect(v.identityTrustDomain).toBe('');
  });
});

describe('overridesDiff (Secret linkerd-config-overrides)', () => {
  const d = defaultValues();

  it('is empty when nothing changed', () => {
    expect(overridesDiff(d, defaultValues())).toEqual({});
  });

  it('holds only the changed leaves', () => {
    const final = applyFlags(d, [
      { name: 'controller-replicas', value: 2 },
      { name: 'proxy-cpu-request', value: '100m' },
    ]);
    final.identityTrustAnchorsPEM = 'ANCHORS';
    final.identity.issuer.tls = { crtPEM: 'CRT', keyPEM: 'KEY' };
    expect(overridesDiff(d, final)).toEqual({
      controllerReplicas: 2,
      identityTrustAnchorsPEM: 'ANCHORS',
      identity: { issuer: { tls: { crtPEM: 'CRT', keyPEM: 'KEY' } } },
      proxy: { resources: { cpu: { request: '100m' } } },
    });
  });

  it('compares lists whole', () => {
    const final = defaultValues();
    final.policyController.probeNetworks = ['0.0.0.0/0', '::/0', '10.0.0.0/8'];
    expect(overridesDiff(d, final)).toEqual({ policyController: { probeNetworks: ['0.0.0.0/0', '::/0', '10.0.0.0/8'] } });
  });

  it('records keys the defaults lack, and keys removed from them as null', () => {
    const final = defaultValues();
    final.heartbeatSchedule = '1 2 3 4 5';
    delete final.nodeSelector['kubernetes.io/os'];
    expect(overridesDiff(d, final)).toEqual({ heartbeatSchedule: '1 2 3 4 5', nodeSelector: { 'kubernetes.io/os': null } });
  });

  it('round-trips: defaults merged with the diff give the final values', () => {
    const { values: final } = composeValues({
      base: defaultValues(),
      flags: [
        { name: 'ha', value: true },
        { name: 'registry', value: 'r.example/l5d' },
      ],
      set: ['podLabels.team=mesh', 'proxy.opaquePorts=3306', 'nodeSelector=null'],
    });
    expect(final.nodeSelector).toEqual({});
    const diff = overridesDiff(d, final);
    expect(mergeValues(d, diff)).toEqual(final);
  });

  it('keeps the version out of the diff, so upgrade picks up the new release', () => {
    const diff = overridesDiff(defaultValues('edge-26.9.1'), applyFlags(defaultValues('edge-26.9.1'), [{ name: 'ha', value: true }]));
    expect(diff).not.toHaveProperty('linkerdVersion');
    expect(diff).not.toHaveProperty('cliVersion');
  });

  describe('property: mergeValues(defaults, overridesDiff(defaults, x)) equals x for random edits', () => {
    const leafPaths: string[][] = [];
    const walk = (node: unknown, path: string[]) => {
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
        const keys = Object.keys(node);
        if (path.length > 0) leafPaths.push(path);
        for (const k of keys) walk((node as Record<string, unknown>)[k], [...path, k]);
      } else {
        leafPaths.push(path);
      }
    };
    walk(d, []);

    // Final values never hold null: merging deletes nulls.
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('any'), { maxLength: 3 }),
      map: fc.dictionary(fc.string({ maxLength: 6 }), tie('any'), { maxKeys: 3 }),
    })).any;

    const edit = fc.record({
      path: fc.oneof(fc.constantFrom(...leafPaths), fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 })),
      op: fc.oneof(
        fc.constant({ kind: 'delete' as const }),
        value.map((v) => ({ kind: 'set' as const, v })),
      ),
    });

    function applyEdit(root: Record<string, unknown>, path: string[], op: { kind: 'delete' } | { kind: 'set'; v: unknown }) {
      let cur: Record<string, unknown> = root;
      for (const seg of path.slice(0, -1)) {
        const next = Object.prototype.hasOwnProperty.call(cur, seg) ? cur[seg] : undefined;
        if (next === null || typeof next !== 'object' || Array.isArray(next)) {
          const fresh: Record<string, unknown> = {};
          Object.defineProperty(cur, seg, { value: fresh, enumerable: true, writable: true, configurable: true });
          cur = fresh;
        } else {
          cur = next as Record<string, unknown>;
        }
      }
      const last = path[path.length - 1];
      if (op.kind === 'delete') delete cur[last];
      else Object.defineProperty(cur, last, { value: op.v, enumerable: true, writable: true, configurable: true });
    }

    it('holds', () => {
      fc.assert(
        fc.property(fc.array(edit, { maxLength: 8 }), (edits) => {
          const x = defaultValues() as unknown as Record<string, unknown>;
          for (const e of edits) applyEdit(x, e.path, e.op);
          expect(mergeValues(d, overridesDiff(d, x))).toEqual(x);
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('parseClusterValues (reading linkerd-config back)', () => {
  it('reads values written by this release unchanged', () => {
    const v = defaultValues();
    v.controllerReplicas = 3;
    const { values, unknownKeys, invalidKeys } = parseClusterValues(linkerdConfigValues(v), 'linkerd-config');
    expect(values.controllerReplicas).toBe(3);
    expect(values.identityTrustDomain).toBe('cluster.local');
    expect(values.identity.issuer.tls.keyPEM).toBe('');
    expect(unknownKeys).toEqual([]);
    expect(invalidKeys).toEqual([]);
  });

  it('strips keys this CLI does not know and lists them', () => {
    const stored = {
      ...linkerdConfigValues(defaultValues()),
      licenseSecret: null,
      manageExternalWorkloads: true,
      proxy: { ...defaultValues().proxy, futureKnob: 'on', runtime: { workers: { minimum: 2, extra: 1 } } },
    };
    const { values, unknownKeys } = parseClusterValues(stored, 'linkerd-config');
    expect(unknownKeys.sort()).toEqual(['manageExternalWorkloads', 'proxy.futureKnob', 'proxy.runtime.workers.extra']);
    expect(values.proxy.runtime.workers.minimum).toBe(2);
    expect('futureKnob' in values.proxy).toBe(false);
  });

  it('fills keys an older control plane lacks from this release and treats nulls as absent', () => {
    const old = linkerdConfigValues(defaultValues('edge-25.1.1'));
    delete old.egress;
    (old.proxy as Record<string, unknown>).cores = null;
    (old.proxy as Record<string, unknown>).runtime = { workers: { minimum: 1, maximumCPURatio: null } };
    const { values } = parseClusterValues(old, 'linkerd-config');
    expect(values.egress).toEqual({ globalEgressNetworkNamespace: 'linkerd-egress' });
    expect(values.linkerdVersion).toBe('edge-25.1.1');
    expect('cores' in values.proxy).toBe(false);
    expect(values.proxy.runtime.workers).toEqual({ minimum: 1 });
  });

  it('reads a linkerd-config written before this release (jaeger-era tracing keys, none of the new keys)', () => {
    const old = linkerdConfigValues(defaultValues('edge-25.9.1')) as Record<string, Record<string, unknown>>;
    Object.assign(old, { controlPlaneTracing: true, controlPlaneTracingNamespace: 'linkerd-jaeger' });
    for (const k of ['isGateway', 'isIngress']) delete old.proxy[k];
    delete (old.proxy.tracing as Record<string, unknown>).labels;
    delete old.networkValidator.securityContext;
    for (const section of ['controller', 'serviceMirror', 'proxy']) delete (old.podMonitor[section] as Record<string, unknown>).honorTimestamps;
    const { values, unknownKeys, invalidKeys } = parseClusterValues(old, 'linkerd-config');
    expect(unknownKeys.sort()).toEqual(['controlPlaneTracing', 'controlPlaneTracingNamespace']);
    expect(invalidKeys).toEqual([]);
    expect(values.networkValidator.securityContext).toEqual(defaultValues().networkValidator.securityContext);
    expect(values.podMonitor.proxy.honorTimestamps).toBe(true);
    expect(values.proxy.isGateway).toBe(false);
  });

  it('reads a linkerd-config with the new keys set away from their defaults', () => {
    const v = defaultValues();
    v.proxy.isIngress = true;
    v.podMonitor.controller.honorTimestamps = false;
    v.networkValidator.securityContext = { ...v.networkValidator.securityContext, runAsUser: 1000 };
    v.proxy.tracing.labels = { ...v.proxy.tracing.labels, team: 'mesh' };
    const { values, unknownKeys } = parseClusterValues(linkerdConfigValues(v), 'linkerd-config');
    expect(unknownKeys).toEqual([]);
    expect(values.proxy.isIngress).toBe(true);
    expect(values.podMonitor.controller.honorTimestamps).toBe(false);
    expect(values.networkValidator.securityContext).toEqual(v.networkValidator.securityContext);
    expect(values.proxy.tracing.labels).toEqual(v.proxy.tracing.labels);
  });

  it('falls back to the default for a wrongly typed known key and lists it', () => {
    const stored = { ...linkerdConfigValues(defaultValues()), controllerReplicas: 'three' };
    const { values, invalidKeys } = parseClusterValues(stored, 'linkerd-config');
    expect(values.controllerReplicas).toBe(1);
    expect(invalidKeys).toEqual(['controllerReplicas']);
  });

  it('refuses something that is not a map', () => {
    expect(() => parseClusterValues('nope', 'linkerd-config')).toThrow('linkerd-config: expected a map of values');
  });
});

describe('parseClusterValues with a stored config from another release', () => {
  it('keeps known values, lists unknown ones and defaults the rest', () => {
    const path = new URL('../../../fixtures/values/cluster-config.yaml', import.meta.url);
    const stored = parseValuesYaml(readFileSync(path, 'utf8'), 'linkerd-config');
    const { values, unknownKeys } = parseClusterValues(stored, 'linkerd-config');
    expect(unknownKeys.sort()).toEqual(['manageExternalWorkloads', 'proxyInit.image']);
    expect(values.linkerdVersion).toBe('edge-25.4.4');
    expect(values.proxy.nativeSidecar).toBe(false);
    expect(values.proxy.logLevel).toBe('warn,linkerd=debug');
    expect(values.proxyInit.iptablesMode).toBe('legacy');
    expect(values.proxy.ports.admin).toBe(4191);
    expect(values.debugContainer.image.version).toBe('edge-25.4.4');
  });
});
