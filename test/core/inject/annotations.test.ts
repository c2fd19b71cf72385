import { describe, expect, it } from 'vitest';
import { ANNOTATIONS, applyAnnotations, overrideAnnotations } from '../../../src/core/inject/annotations.js';
import { proxySettings } from '../../../src/core/inject/settings.js';
import { defaultValues } from '../../../src/core/values/defaults.js';
import { controlPlaneChart, flagsOf, type FlagValue } from '../../../src/core/values/index.js';

const overridesFor = (flags: Record<string, FlagValue>) =>
  Object.fromEntries(proxySettings({ base: defaultValues(), flags: Object.entries(flags).map(([name, value]) => ({ name, value })) }).overrides);

describe('flags → override annotations', () => {
  it.each([
    ['proxy-version', 'stable-2.14.10', { 'config.linkerd.io/proxy-version': 'stable-2.14.10' }],
    ['skip-inbound-ports', ['9090', '9100-9102'], { 'config.linkerd.io/skip-inbound-ports': '9090,9100-9102' }],
    ['skip-outbound-ports', ['3306'], { 'config.linkerd.io/skip-outbound-ports': '3306' }],
    ['admin-port', '5191', { 'config.linkerd.io/admin-port': '5191' }],
    ['control-port', '5190', { 'config.linkerd.io/control-port': '5190' }],
    ['inbound-port', '5143', { 'config.linkerd.io/inbound-port': '5143' }],
    ['outbound-port', '5140', { 'config.linkerd.io/outbound-port': '5140' }],
    ['opaque-ports', ['8080'], { 'config.linkerd.io/opaque-ports': '8080' }],
    ['proxy-image', 'my.reg/proxy', { 'config.linkerd.io/proxy-image': 'my.reg/proxy' }],
    ['registry', 'my.reg/l5d', { 'config.linkerd.io/proxy-image': 'my.reg/l5d/proxy', 'config.linkerd.io/debug-image': 'my.reg/l5d/debug' }],
    ['image-pull-policy', 'Always', { 'config.linkerd.io/image-pull-policy': 'Always' }],
    ['proxy-uid', '3000', { 'config.linkerd.io/proxy-uid': '3000' }],
    ['proxy-gid', '3000', { 'config.linkerd.io/proxy-gid': '3000' }],
    ['proxy-log-level', 'debug', { 'config.linkerd.io/proxy-log-level': 'debug' }],
    ['require-identity-on-inbound-ports', ['8080'], { 'config.linkerd.io/proxy-require-identity-inbound-ports': '8080' }],
    ['enable-external-profiles', true, { 'config.linkerd.io/enable-external-profiles': 'true' }],
    ['ingress', true, { 'linkerd.io/inject': 'ingress' }],
    ['proxy-cpu-request', '100m', { 'config.linkerd.io/proxy-cpu-request': '100m' }],
    ['proxy-cpu-limit', '1', { 'config.linkerd.io/proxy-cpu-limit': '1' }],
    ['proxy-memory-request', '20Mi', { 'config.linkerd.io/proxy-memory-request': '20Mi' }],
    ['proxy-memory-limit', '250Mi', { 'config.linkerd.io/proxy-memory-limit': '250Mi' }],
    ['proxy-cpu', '100m', { 'config.linkerd.io/proxy-cpu-request': '100m' }],
    ['proxy-memory', '20Mi', { 'config.linkerd.io/proxy-memory-request': '20Mi' }],
    ['wait-before-exit-seconds', '10', { 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '10' }],
    ['default-inbound-policy', 'deny', { 'config.linkerd.io/default-inbound-policy': 'deny' }],
    ['native-sidecar', false, { 'config.linkerd.io/proxy-enable-native-sidecar': 'false' }],
  ] as Array<[string, FlagValue, Record<string, string>]>)('--%s %j writes %j', (flag, value, expected) => {
    expect(overridesFor({ [flag]: value })).toEqual(expected);
  });

  it('writes nothing for a flag set to the base value, --proxy-gid -1, or --native-sidecar (already the default)', () => {
    expect(overridesFor({ 'proxy-uid': '2102', 'proxy-gid': '-1', 'native-sidecar': true })).toEqual({});
  });

  it('has a row for every proxy and inject flag that changes values', () => {
    const rowFlags = new Set(ANNOTATIONS.flatMap((r) => r.flags));
    const valueFlags = flagsOf(controlPlaneChart, ['proxy', 'inject'])
      .map((f) => f.name)
      .filter((n) => !['disable-identity'].includes(n));
    expect(valueFlags.filter((n) => !rowFlags.has(n))).toEqual([]);
  });

  it('rejects flag values linkerd rejects', () => {
    expect(() => overridesFor({ 'proxy-cpu-request': 'lots' })).toThrow(
      /^invalid argument "lots" for "--proxy-cpu-request" flag: quantities must match the regular expression/,
    );
    expect(() => overridesFor({ 'proxy-memory-request': 'lots' })).toThrow("Invalid memory request 'lots' for --proxy-memory-request flag");
    expect(() => overridesFor({ 'default-inbound-policy': 'open' })).toThrow(/^--default-inbound-policy must be one of/);
    expect(() => overridesFor({ 'disable-identity': true })).toThrow('--disable-identity is no longer supported; identity is always required');
  });
});

describe('annotations → values (what --manual renders)', () => {
  it('applies each recognised annotation, converting units like the proxy injector', () => {
    const v = defaultValues();
    const problems = applyAnnotations(v, {
      'config.linkerd.io/proxy-cpu-request': '1500m',
      'config.linkerd.io/proxy-cpu-limit': '3',
      'config.linkerd.io/proxy-outbound-connect-timeout': '2s',
      'config.linkerd.io/proxy-inbound-discovery-cache-unused-timeout': '2m',
      'config.linkerd.io/proxy-disable-inbound-protocol-detect-timeout': 'true',
      'config.linkerd.io/proxy-cpu-ratio-limit': '0.5',
      'config.linkerd.io/proxy-admin-shutdown': 'enabled',
      'config.linkerd.io/skip-subnets': '10.0.0.0/8',
      'config.linkerd.io/close-wait-timeout': '1m30s',
      'config.linkerd.io/proxy-await': 'disabled',
      'config.linkerd.io/pod-inbound-ports': '8080,9090',
    });
    expect(problems).toEqual([]);
    expect(v.proxy.resources.cpu).toEqual({ request: '1500m', limit: '3' });
    expect(v.proxy.runtime.workers).toEqual({ minimum: 2, maximum: 3, maximumCPURatio: 0.5 });
    expect(v.proxy.outboundConnectTimeout).toBe('2000ms');
    expect(v.proxy.inboundDiscoveryCacheUnusedTimeout).toBe('120s');
    expect(v.proxy.disableInboundProtocolDetectTimeout).toBe(true);
    expect(v.proxy.enableShutdownEndpoint).toBe(true);
    expect(v.proxyInit.skipSubnets).toBe('10.0.0.0/8');
    expect(v.proxyInit.closeWaitTimeoutSecs).toBe(90);
    expect(v.proxy.await).toBe(false);
    expect(v.proxy.podInboundPorts).toBe('8080,9090');
  });

  it('prefers the stable native-sidecar key over the beta and alpha ones', () => {
    const v = defaultValues();
    applyAnnotations(v, { 'config.beta.linkerd.io/proxy-enable-native-sidecar': 'false' });
    expect(v.proxy.nativeSidecar).toBe(false);
    applyAnnotations(v, { 'config.linkerd.io/proxy-enable-native-sidecar': 'true', 'config.alpha.linkerd.io/proxy-enable-native-sidecar': 'false' });
    expect(v.proxy.nativeSidecar).toBe(true);
  });

  it('merges proxy-additional-env by name', () => {
    const v = defaultValues();
    v.proxy.additionalEnv = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    applyAnnotations(v, { 'config.linkerd.io/proxy-additional-env': '[{"name":"B","value":"3"},{"name":"C","value":"4"}]' });
    expect(v.proxy.additionalEnv).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ]);
  });

  it('ignores invalid values and says why, leaving the values as they were', () => {
    const v = defaultValues();
    const problems = applyAnnotations(v, {
      'config.linkerd.io/proxy-uid': 'root',
      'config.linkerd.io/admin-port': '70000',
      'config.linkerd.io/proxy-memory-limit': 'big',
      'config.linkerd.io/skip-inbound-ports': '1-x',
      'config.linkerd.io/proxy-await': 'maybe',
    });
    expect(problems.map((p) => `${p.key}: ${p.reason}`)).toEqual([
      'config.linkerd.io/skip-inbound-ports: "x" is not a valid upper-bound',
      'config.linkerd.io/admin-port: not a port number',
      'config.linkerd.io/proxy-uid: not an integer',
      'config.linkerd.io/proxy-memory-limit: not a resource quantity',
      'config.linkerd.io/proxy-await: must be "enabled" or "disabled"',
    ]);
    expect(v).toEqual(defaultValues());
  });

  it('skips the keys a flag already decided', () => {
    const v = defaultValues();
    applyAnnotations(v, { 'config.linkerd.io/proxy-log-level': 'debug' }, new Set(['config.linkerd.io/proxy-log-level']));
    expect(v.proxy.logLevel).toBe(defaultValues().proxy.logLevel);
  });

  it('reads back what flags write', () => {
    const flags = { 'proxy-log-level': 'debug', 'admin-port': '5191', 'proxy-cpu-limit': '2', 'native-sidecar': false, 'opaque-ports': ['1', '2'] };
    const s = proxySettings({ base: defaultValues(), flags: Object.entries(flags).map(([name, value]) => ({ name, value })) });
    const v = defaultValues();
    expect(applyAnnotations(v, Object.fromEntries(s.overrides))).toEqual([]);
    expect(overrideAnnotations(v, defaultValues())).toEqual(s.overrides);
  });
});
