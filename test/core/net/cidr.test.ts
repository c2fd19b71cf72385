import { describe, expect, it } from 'vitest';
import { networkContainsCidr, parseCidr } from '../../../src/core/net/cidr.js';

describe('cluster networks contain a pod or service CIDR (the prefix-length rule)', () => {
  it('refuses a CIDR whose address is inside the network but whose prefix is shorter (it is wider)', () => {
    const net = parseCidr('10.0.0.0/16');
    // 10.0.0.0 is inside 10.0.0.0/16, so only the prefix length tells these apart.
    expect(networkContainsCidr(net, parseCidr('10.0.0.0/8'))).toBe(false);
    expect(networkContainsCidr(net, parseCidr('10.0.0.0/15'))).toBe(false);
    expect(networkContainsCidr(net, parseCidr('10.0.0.0/16'))).toBe(true);
    expect(networkContainsCidr(net, parseCidr('10.0.0.0/17'))).toBe(true);
    expect(networkContainsCidr(parseCidr('fd00::/16'), parseCidr('fd00::/8'))).toBe(false);
    expect(networkContainsCidr(parseCidr('fd00::/16'), parseCidr('fd00:1::/32'))).toBe(true);
  });

  it('refuses a prefix longer than the address family allows', () => {
    expect(parseCidr('10.0.0.0/32').bits).toBe(32);
    expect(() => parseCidr('10.0.0.0/33')).toThrow('invalid CIDR address: 10.0.0.0/33');
    expect(parseCidr('fd00::/128').bits).toBe(128);
    expect(() => parseCidr('fd00::/129')).toThrow('invalid CIDR address: fd00::/129');
  });
});
