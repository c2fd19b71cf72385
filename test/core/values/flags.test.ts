import { describe, expect, it } from 'vitest';
import {
  CONTROL_PLANE_FLAG_SETS,
  VALUE_FLAGS,
  applyFlags,
  controlPlaneChart,
  defaultValues,
  deprecationWarnings,
  flagsOf,
  registryOverride,
  validateValues,
  type SetFlag,
} from '../../../src/core/values/index.js';

const apply = (...flags: SetFlag[]) => applyFlags(defaultValues(), flags);

describe('the flag table', () => {
  it('has unique names and declares the sets installOnly, installUpgrade, proxy, inject in order', () => {
    const names = VALUE_FLAGS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(CONTROL_PLANE_FLAG_SETS)).toEqual(['installOnly', 'installUpgrade', 'proxy', 'inject']);
    expect(VALUE_FLAGS).toEqual(Object.values(CONTROL_PLANE_FLAG_SETS).flat());
  });

  it('gives each command its sets (install: installOnly+installUpgrade+proxy, upgrade: installUpgrade+proxy, inject: proxy+inject)', () => {
    const install = flagsOf(controlPlaneChart, ['installOnly', 'installUpgrade', 'proxy']);
    const upgrade = flagsOf(controlPlaneChart, ['installUpgrade', 'proxy']);
    const inject = flagsOf(controlPlaneChart, ['proxy', 'inject']);
    expect(upgrade.some((f) => f.name === 'cluster-domain')).toBe(false);
    expect(inject.some((f) => f.name === 'ha')).toBe(false);
    expect(inject.some((f) => f.name === 'native-sidecar')).toBe(true);
    expect(install.some((f) => f.name === 'native-sidecar')).toBe(false);
    expect(install.some((f) => f.name === 'cluster-domain')).toBe(true);
    // Asked in any order, a command's flags come in table order.
    expect(flagsOf(controlPlaneChart, ['proxy', 'installUpgrade'])).toEqual(upgrade);
  });

  it.each([
    ['cluster-domain', 'cluster.local'],
    ['controller-log-level', 'info'],
    ['controller-replicas', 1],
    ['controller-uid', 2103],
    ['controller-gid', -1],
    ['identity-issuance-lifetime', '24h0m0s'],
    ['identity-clock-skew-allowance', '20s'],
    ['enable-endpoint-slices', true],
    ['proxy-image', 'cr.l5d.io/linkerd/proxy'],
    ['image-pull-policy', 'IfNotPresent'],
    ['inbound-port', 4143],
    ['outbound-port', 4140],
    ['proxy-uid', 2102],
    ['proxy-gid', -1],
    ['proxy-log-level', 'warn,linkerd=info,hickory=error'],
    ['control-port', 4190],
    ['admin-port', 4191],
    ['default-inbound-policy', 'all-unauthenticated'],
    ['registry', 'cr.l5d.io/linkerd'],
    ['native-sidecar', false],
    ['wait-before-exit-seconds', 0],
    ['require-identity-on-inbound-ports', ['']],
    ['opaque-ports', ['25', '587', '3306', '4444', '5432', '6379', '9300', '11211']],
  ])('--%s defaults to %j (as in cli/cmd/options.go)', (name, expected) => {
    expect(VALUE_FLAGS.find((f) => f.name === name)?.default).toEqual(expected);
  });

  it('agrees with the chart defaults: applying a flag at its default changes nothing', () => {
    // Exceptions by design: --native-sidecar defaults to false while the chart says true; an explicit
    // --image-pull-policy also pins the proxy/debug pull policies; empty CPU flags are not quantities;
    // --skip-*-ports default to "none" and replace 4567,4568; file flags read files;
    // --disable-identity always errors; proxy.isIngress has no chart default, so --ingress=false adds it.
    const exceptions = [
      'native-sidecar',
      'image-pull-policy',
      'proxy-cpu-request',
      'proxy-cpu-limit',
      'skip-inbound-ports',
      'skip-outbound-ports',
      'disable-identity',
      'ingress',
    ];
    for (const f of VALUE_FLAGS) {
      if (exceptions.includes(f.name) || f.name.endsWith('-file')) continue;
      expect(apply({ name: f.name, value: f.default }), `--${f.name}`).toEqual(defaultValues());
    }
  });
});

describe('applyFlags', () => {
  it('applies only the flags given', () => {
    expect(apply()).toEqual(defaultValues());
  });

  it('does not mutate the values passed in', () => {
    const base = defaultValues();
    applyFlags(base, [{ name: 'controller-replicas', value: 3 }]);
    expect(base.controllerReplicas).toBe(1);
  });

  it('maps install-only flags', () => {
    const v = apply(
      { name: 'cluster-domain', value: 'example.org' },
      { name: 'identity-trust-domain', value: 'td.example' },
      { name: 'identity-external-issuer', value: true },
      { name: 'identity-external-ca', value: true },
    );
    expect(v.clusterDomain).toBe('example.org');
    expect(v.identityTrustDomain).toBe('td.example');
    expect(v.identity.issuer.scheme).toBe('kubernetes.io/tls');
    expect(v.identity.externalCA).toBe(true);
    expect(apply({ name: 'identity-external-issuer', value: false }).identity.issuer.scheme).toBe('linkerd.io/tls');
  });

  it('inverts --disable-h2-upgrade', () => {
    expect(apply({ name: 'disable-h2-upgrade', value: true }).enableH2Upgrade).toBe(false);
    expect(apply({ name: 'disable-h2-upgrade', value: 'false' }).enableH2Upgrade).toBe(true);
  });

  it('parses integer flags from command-line strings', () => {
    const v = apply(
      { name: 'controller-replicas', value: '2' },
      { name: 'proxy-gid', value: '-1' },
      { name: 'admin-port', value: '9991' },
      { name: 'wait-before-exit-seconds', value: '5' },
    );
    expect([v.controllerReplicas, v.proxy.gid, v.proxy.ports.admin, v.proxy.waitBeforeExitSeconds]).toEqual([2, -1, 9991, 5]);
  });

  it('rejects malformed integers like pflag', () => {
    expect(() => apply({ name: 'controller-replicas', value: '-1' })).toThrow(
      'invalid argument "-1" for "--controller-replicas" flag: strconv.ParseUint: parsing "-1": invalid syntax',
    );
    expect(() => apply({ name: 'proxy-uid', value: 'x' })).toThrow(
      'invalid argument "x" for "--proxy-uid" flag: strconv.ParseInt: parsing "x": invalid syntax',
    );
  });

  it('quotes a refused value with strconv.Quote, as pflag and strconv do (one quoting for every flag)', () => {
    // Go: strconv.ParseInt: parsing "1\x01": invalid syntax (JSON's "\u0001" is not Go's spelling).
    expect(() => apply({ name: 'proxy-uid', value: '1\x01' })).toThrow(
      'invalid argument "1\\x01" for "--proxy-uid" flag: strconv.ParseInt: parsing "1\\x01": invalid syntax',
    );
    expect(() => apply({ name: 'ha', value: 'y\x7f' })).toThrow(
      'invalid argument "y\\x7f" for "--ha" flag: strconv.ParseBool: parsing "y\\x7f": invalid syntax',
    );
  });

  it("normalises durations to Go's canonical form", () => {
    const v = apply({ name: 'identity-issuance-lifetime', value: '24h' }, { name: 'identity-clock-skew-allowance', value: '1m' });
    expect(v.identity.issuer.issuanceLifetime).toBe('24h0m0s');
    expect(v.identity.issuer.clockSkewAllowance).toBe('1m0s');
    expect(apply({ name: 'identity-issuance-lifetime', value: '90m30s' }).identity.issuer.issuanceLifetime).toBe('1h30m30s');
    expect(() => apply({ name: 'identity-issuance-lifetime', value: 'forever' })).toThrow(
      'invalid argument "forever" for "--identity-issuance-lifetime" flag: time: invalid duration "forever"',
    );
  });

  it('sets workers.minimum from --proxy-cpu-request, rounded up to whole cores', () => {
    const v = apply({ name: 'proxy-cpu-request', value: '1500m' });
    expect(v.proxy.resources.cpu.request).toBe('1500m');
    expect(v.proxy.runtime.workers.minimum).toBe(2);
    expect(apply({ name: 'proxy-cpu-request', value: '100m' }).proxy.runtime.workers.minimum).toBe(1);
    expect(apply({ name: 'proxy-cpu-request', value: '2' }).proxy.runtime.workers.minimum).toBe(2);
  });

  it('sets workers.maximum from --proxy-cpu-limit', () => {
    const v = apply({ name: 'proxy-cpu-limit', value: '2.5' });
    expect(v.proxy.resources.cpu.limit).toBe('2.5');
    expect(v.proxy.runtime.workers.maximum).toBe(3);
  });

  it('rejects a CPU flag that is not a quantity', () => {
    expect(() => apply({ name: 'proxy-cpu-request', value: 'lots' })).toThrow(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  it('maps memory flags and the deprecated aliases (no worker change for --proxy-cpu)', () => {
    const v = apply({ name: 'proxy-memory-request', value: '20Mi' }, { name: 'proxy-memory-limit', value: '250Mi' });
    expect(v.proxy.resources.memory).toEqual({ request: '20Mi', limit: '250Mi' });
    expect(apply({ name: 'proxy-memory', value: '30Mi' }).proxy.resources.memory.request).toBe('30Mi');
    const cpu = apply({ name: 'proxy-cpu', value: '3' });
    expect(cpu.proxy.resources.cpu.request).toBe('3');
    expect(cpu.proxy.runtime.workers.minimum).toBe(1);
    expect(apply({ name: 'proxy-version', value: 'v9' }).proxy.image.version).toBe('v9');
  });

  it('warns about deprecated flags in pflag words', () => {
    expect(
      deprecationWarnings([
        { name: 'proxy-cpu', value: '1' },
        { name: 'admin-port', value: 1 },
      ]),
    ).toEqual(['Flag --proxy-cpu has been deprecated, use --proxy-cpu-request instead']);
  });

  it('joins --skip-*-ports slices with commas, replacing the defaults', () => {
    const v = apply({ name: 'skip-inbound-ports', value: ['80', '8000-9000'] }, { name: 'skip-outbound-ports', value: '3306,5432' });
    expect(v.proxyInit.ignoreInboundPorts).toBe('80,8000-9000');
    expect(v.proxyInit.ignoreOutboundPorts).toBe('3306,5432');
    expect(apply({ name: 'skip-inbound-ports', value: [] }).proxyInit.ignoreInboundPorts).toBe('');
  });

  it('sets pull policy on the controller, proxy and debug images', () => {
    const v = apply({ name: 'image-pull-policy', value: 'Always' });
    expect([v.imagePullPolicy, v.proxy.image.pullPolicy, v.debugContainer.image.pullPolicy]).toEqual(['Always', 'Always', 'Always']);
  });

  it('maps inject-only flags', () => {
    const v = apply(
      { name: 'native-sidecar', value: false },
      { name: 'ingress', value: true },
      { name: 'opaque-ports', value: ['3306', '6379'] },
      { name: 'require-identity-on-inbound-ports', value: ['8080'] },
    );
    expect(v.proxy.nativeSidecar).toBe(false);
    expect(v.proxy.isIngress).toBe(true);
    expect(v.proxy.opaquePorts).toBe('3306,6379');
    expect(v.proxy.requireIdentityOnInboundPorts).toBe('8080');
  });

  it('refuses --disable-identity', () => {
    expect(() => apply({ name: 'disable-identity', value: true })).toThrow('--disable-identity is no longer supported; identity is always required');
  });

  it('reads the identity files, letting the PKI module normalise them', () => {
    const files: Record<string, string> = { 'ca.crt': 'ANCHORS', 'issuer.crt': 'LEAF+CHAIN', 'issuer.key': 'PKCS8' };
    const v = applyFlags(
      defaultValues(),
      [
        { name: 'identity-trust-anchors-file', value: 'ca.crt' },
        { name: 'identity-issuer-certificate-file', value: 'issuer.crt' },
        { name: 'identity-issuer-key-file', value: 'issuer.key' },
      ],
      { readFile: (p) => files[p], issuerCertificatePEM: (pem) => pem.split('+')[0], issuerKeyPEM: () => 'EC' },
    );
    expect(v.identityTrustAnchorsPEM).toBe('ANCHORS');
    expect(v.identity.issuer.tls.crtPEM).toBe('LEAF');
    expect(v.identity.issuer.tls.keyPEM).toBe('EC');
  });

  it('reports a missing identity file like the Go CLI', () => {
    expect(() => apply({ name: 'identity-trust-anchors-file', value: '/no/such/ca.crt' })).toThrow('open /no/such/ca.crt: no such file or directory');
  });

  describe('--ha', () => {
    it('merges the HA overlay and marks highAvailability', () => {
      const v = apply({ name: 'ha', value: true });
      expect(v.highAvailability).toBe(true);
      expect(v.controllerReplicas).toBe(3);
      expect(v.webhookFailurePolicy).toBe('Fail');
      expect(v.enablePodAntiAffinity).toBe(true);
      expect(v.enablePodDisruptionBudget).toBe(true);
      expect(v.deploymentStrategy.rollingUpdate).toEqual({ maxUnavailable: 1, maxSurge: '25%' });
      expect(v.proxy.resources.cpu).toEqual({ limit: '', request: '100m' });
      expect(v.proxy.resources.memory).toEqual({ limit: '250Mi', request: '20Mi' });
      expect(v.identityResources?.memory?.request).toBe('10Mi');
      expect(validateValues(v, 'ha')).toEqual(v);
    });

    it('is applied before later flags, whatever the order given, so they override it', () => {
      const v = apply({ name: 'proxy-memory-limit', value: '1Gi' }, { name: 'controller-replicas', value: 5 }, { name: 'ha', value: true });
      expect(v.controllerReplicas).toBe(5);
      expect(v.proxy.resources.memory.limit).toBe('1Gi');
      expect(v.webhookFailurePolicy).toBe('Fail');
    });

    it('keeps a non-empty value where the overlay is empty (upgrade of a customised install)', () => {
      const base = defaultValues();
      base.destinationResources = { cpu: { limit: '2' } };
      const v = applyFlags(base, [{ name: 'ha', value: true }]);
      expect(v.destinationResources?.cpu).toEqual({ limit: '2', request: '100m' });
    });

    it('with =false only records highAvailability=false', () => {
      expect(apply({ name: 'ha', value: false })).toEqual(defaultValues());
    });
  });

  describe('--registry', () => {
    it('rewrites the registry of the controller, debug and proxy images (the policy controller runs from the controller image)', () => {
      const v = apply({ name: 'registry', value: 'my.registry.io/l5d' });
      expect(v.controllerImage).toBe('my.registry.io/l5d/controller');
      expect(v.policyController.image.name).toBe('');
      expect(v.debugContainer.image.name).toBe('my.registry.io/l5d/debug');
      expect(v.proxy.image.name).toBe('my.registry.io/l5d/proxy');
    });

    it('applies after --proxy-image, keeping its last path segment', () => {
      const v = apply({ name: 'registry', value: 'reg.local/' }, { name: 'proxy-image', value: 'ghcr.io/me/custom-proxy' });
      expect(v.proxy.image.name).toBe('reg.local/custom-proxy');
    });

    it('handles images without a registry and empty images', () => {
      expect(registryOverride('proxy', 'r.io')).toBe('r.io/proxy');
      expect(registryOverride('', 'r.io')).toBe('');
      expect(registryOverride('a/b/c', '')).toBe('c');
    });
  });
});
