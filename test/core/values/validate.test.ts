import { describe, expect, it } from 'vitest';
import {
  type Values,
  defaultValues,
  formatGoDuration,
  installValueProblems,
  isCIDR,
  normalizeGoDuration,
  parseGoDuration,
  parsePortRanges,
  parseQuantity,
  validateInstallValues,
  wholeCPUCores,
} from '../../../src/core/values/index.js';

function withValues(edit: (v: Values) => void): Values {
  const v = defaultValues();
  edit(v);
  return v;
}

const fails = (edit: (v: Values) => void) => expect(() => validateInstallValues(withValues(edit)));

describe('validateInstallValues (as linkerd validateValues)', () => {
  it('accepts the defaults', () => {
    expect(() => validateInstallValues(defaultValues())).not.toThrow();
    expect(installValueProblems(defaultValues())).toEqual([]);
  });

  it('requires linkerdVersion to match [.a-zA-Z0-9-]+', () => {
    fails((v) => (v.linkerdVersion = 'edge/1')).toThrow('edge/1 is not a valid version');
    expect(() => validateInstallValues(withValues((v) => (v.linkerdVersion = 'stable-2.14.10')))).not.toThrow();
  });

  it('requires a logrus controller log level', () => {
    fails((v) => (v.controllerLogLevel = 'verbose')).toThrow('--controller-log-level must be one of: panic, fatal, error, warn, info, debug, trace');
    for (const level of ['panic', 'fatal', 'error', 'warn', 'warning', 'info', 'debug', 'trace', 'DEBUG']) {
      expect(() => validateInstallValues(withValues((v) => (v.controllerLogLevel = level)))).not.toThrow();
    }
  });

  it('requires a proxy log level', () => {
    fails((v) => (v.proxy.logLevel = '')).toThrow('--proxy-log-level must not be empty');
  });

  it('requires the trust domain, when set, to be a DNS-1123 subdomain', () => {
    fails((v) => (v.identityTrustDomain = 'Bad_Domain')).toThrow(
      "invalid trust domain 'Bad_Domain': a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    fails((v) => (v.identityTrustDomain = `${'a'.repeat(250)}.com`)).toThrow(/: must be no more than 253 characters$/);
    expect(() => validateInstallValues(withValues((v) => (v.identityTrustDomain = 'example.com')))).not.toThrow();
  });

  it('requires every cluster network to be an IPv4 or IPv6 CIDR', () => {
    fails((v) => (v.clusterNetworks = '10.0.0.0/8,not-a-net')).toThrow('cannot parse destination get networks: invalid CIDR address: not-a-net');
    fails((v) => (v.clusterNetworks = '10.0.0.0/33')).toThrow('invalid CIDR address: 10.0.0.0/33');
    fails((v) => (v.clusterNetworks = '')).toThrow('cannot parse destination get networks: invalid CIDR address: ');
    expect(() => validateInstallValues(withValues((v) => (v.clusterNetworks = 'fd00::/8,::/0,10.1.2.3/32')))).not.toThrow();
  });

  it('parses CIDRs like Go', () => {
    expect(isCIDR('192.168.0.0/16')).toBe(true);
    expect(isCIDR('2001:db8::/32')).toBe(true);
    expect(isCIDR('fd00::/129')).toBe(false);
    expect(isCIDR('fe80::1%eth0/64')).toBe(false);
    expect(isCIDR('010.0.0.0/8')).toBe(false);
    expect(isCIDR('10.0.0.0')).toBe(false);
    expect(isCIDR(' 10.0.0.0/8')).toBe(false);
  });

  it('requires a set proxy image version to be a valid version', () => {
    fails((v) => (v.proxy.image.version = 'v1 beta')).toThrow('v1 beta is not a valid version');
  });

  it('requires a known image pull policy', () => {
    fails((v) => (v.imagePullPolicy = 'Sometimes')).toThrow('--image-pull-policy must be one of: Always, IfNotPresent, Never');
  });

  it('requires proxy resources to be quantities', () => {
    fails((v) => (v.proxy.resources.cpu.request = 'x')).toThrow("Invalid cpu request 'x' for --proxy-cpu-request flag");
    fails((v) => (v.proxy.resources.memory.request = '1GB')).toThrow("Invalid memory request '1GB' for --proxy-memory-request flag");
    fails((v) => (v.proxy.resources.cpu.limit = 'y')).toThrow("Invalid cpu limit 'y' for --proxy-cpu-limit flag");
    fails((v) => (v.proxy.resources.memory.limit = 'z')).toThrow("Invalid memory limit 'z' for --proxy-memory-limit flag");
  });

  it('requires limits not to be lower than requests', () => {
    fails((v) => {
      v.proxy.resources.cpu.request = '2';
      v.proxy.resources.cpu.limit = '1500m';
    }).toThrow("The cpu limit '1500m' cannot be lower than the cpu request '2'");
    fails((v) => {
      v.proxy.resources.memory.request = '1Gi';
      v.proxy.resources.memory.limit = '1000Mi';
    }).toThrow("The memory limit '1000Mi' cannot be lower than the memory request '1Gi'");
    expect(() =>
      validateInstallValues(
        withValues((v) => {
          v.proxy.resources.cpu.request = '1';
          v.proxy.resources.cpu.limit = '1000m';
          v.proxy.resources.memory.request = '1Gi';
          v.proxy.resources.memory.limit = '1024Mi';
        }),
      ),
    ).not.toThrow();
  });

  it.each([
    ['off', true],
    ['info', true],
    ['somemodule', true],
    ['bad%name', false],
    ['linkerd=debug', true],
    ['linkerd2%proxy=debug', false],
    ['linkerd=foobar', false],
    ['linker2d_proxy,std::option', true],
    ['warn,linkerd=info', true],
    ['warn,linkerd=foobar', false],
    ['warn,linkerd=info,hickory=error', true],
    ['linkerd2_proxy::app=trace,', true],
    [',info', false],
    ['a:b', false],
  ])('proxy log level %j is valid: %s', (level, valid) => {
    const check = () => validateInstallValues(withValues((v) => (v.proxy.logLevel = level)));
    if (valid) expect(check).not.toThrow();
    else
      expect(check).toThrow(
        `"${level}" is not a valid proxy log level - for allowed syntax check https://docs.rs/env_logger/0.6.0/env_logger/#enabling-logging`,
      );
  });

  it.each([
    ['1-2-3', 'ranges expected as <lower>-<upper>'],
    ['x-80', '"x" is not a valid lower-bound'],
    ['80-x', '"x" is not a valid upper-bound'],
    ['90-80', '"90-80": upper-bound must be greater than or equal to lower-bound'],
    ['http', '"http" is not a valid port nor port-range'],
    ['70000', '"70000" is not a valid port nor port-range'],
  ])('rejects skipped ports %j: %s', (ports, message) => {
    fails((v) => (v.proxyInit.ignoreInboundPorts = ports)).toThrow(message);
    fails((v) => (v.proxyInit.ignoreOutboundPorts = `25,${ports}`)).toThrow(message);
  });

  it('accepts empty skip-port lists and ranges', () => {
    expect(() =>
      validateInstallValues(
        withValues((v) => {
          v.proxyInit.ignoreInboundPorts = '';
          v.proxyInit.ignoreOutboundPorts = '0,25,4567-4568,65535';
        }),
      ),
    ).not.toThrow();
  });

  it('requires a known default inbound policy', () => {
    fails((v) => (v.proxy.defaultInboundPolicy = 'allow')).toThrow(
      '--default-inbound-policy must be one of: all-authenticated, all-unauthenticated, cluster-authenticated, cluster-unauthenticated, deny, audit (got allow)',
    );
    expect(() => validateInstallValues(withValues((v) => (v.proxy.defaultInboundPolicy = 'audit')))).not.toThrow();
  });

  it("reports the first problem in linkerd's order", () => {
    const v = withValues((x) => {
      x.proxy.defaultInboundPolicy = 'allow';
      x.imagePullPolicy = 'Sometimes';
      x.controllerLogLevel = 'loud';
    });
    expect(installValueProblems(v)).toEqual([
      '--controller-log-level must be one of: panic, fatal, error, warn, info, debug, trace',
      '--image-pull-policy must be one of: Always, IfNotPresent, Never',
      '--default-inbound-policy must be one of: all-authenticated, all-unauthenticated, cluster-authenticated, cluster-unauthenticated, deny, audit (got allow)',
    ]);
    expect(() => validateInstallValues(v)).toThrow('--controller-log-level must be one of');
  });
});

describe('parseQuantity', () => {
  it.each([
    ['100m', 0.1],
    ['1500m', 1.5],
    ['2', 2],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['1k', 1000],
    ['250Mi', 250 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['1e3', 1000],
    ['1E3', 1000],
    ['5E', 5e18],
    ['100n', 1e-7],
    ['+1', 1],
    ['-1', -1],
  ])('%s = %d', (q, n) => {
    expect(parseQuantity(q)).toBeCloseTo(n, 12);
  });

  it.each(['', 'x', '1GB', '1..5', 'm', '1 m', '1K'])('rejects %j', (q) => {
    expect(() => parseQuantity(q)).toThrow();
  });

  it('rounds CPU up to whole cores', () => {
    expect([wholeCPUCores('1500m'), wholeCPUCores('1'), wholeCPUCores('1001m'), wholeCPUCores('0.1'), wholeCPUCores('1.1')]).toEqual([2, 1, 2, 1, 2]);
  });
});

describe('parsePortRanges', () => {
  it('parses ports and inclusive ranges', () => {
    expect(parsePortRanges('25,4567-4568')).toEqual([
      [25, 25],
      [4567, 4568],
    ]);
    expect(parsePortRanges('')).toEqual([]);
  });
});

describe('Go durations', () => {
  it.each([
    ['24h', '24h0m0s'],
    ['24h0m0s', '24h0m0s'],
    ['20s', '20s'],
    ['90s', '1m30s'],
    ['1.5s', '1.5s'],
    ['1h30m', '1h30m0s'],
    ['100ms', '100ms'],
    ['1500us', '1.5ms'],
    ['1500µs', '1.5ms'],
    ['999ns', '999ns'],
    ['0', '0s'],
    ['-5m', '-5m0s'],
    ['8760h', '8760h0m0s'],
    ['2h45m30.5s', '2h45m30.5s'],
  ])('%s prints as %s', (input, output) => {
    expect(normalizeGoDuration(input)).toBe(output);
  });

  it('keeps nanosecond precision beyond 2^53', () => {
    expect(parseGoDuration('8760h')).toBe(31_536_000_000_000_000n);
    expect(formatGoDuration(31_536_000_000_000_001n)).toBe('8760h0m0.000000001s');
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5y', 'time: unknown unit "y" in duration "5y"'],
  ])('rejects %j', (input, message) => {
    expect(() => parseGoDuration(input)).toThrow(message);
  });
});
