import { isIP } from 'node:net';

/** An IPv4 or IPv6 network, as Go's net.ParseCIDR returns it (address masked to the network). */
export interface Network {
  family: 4 | 6;
  base: bigint;
  bits: number;
}

function ipToBigInt(ip: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(ip);
  if (family === 4) {
    return { family: 4, value: ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n) };
  }
  if (family === 6) {
    // IPv4-mapped tails (::ffff:1.2.3.4) become two hextets.
    let text = ip;
    const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
    const tail4 = v4 === undefined ? undefined : ipToBigInt(v4);
    if (v4 !== undefined && tail4 !== undefined) {
      const n = tail4.value;
      text = `${text.slice(0, -v4.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
    }
    const [head, tail] = text.split('::');
    const h = head ? head.split(':') : [];
    const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
    const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
    return { family: 6, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n) };
  }
  return undefined;
}

const width = (family: 4 | 6) => (family === 4 ? 32 : 128);
const mask = (family: 4 | 6, bits: number) => ((1n << BigInt(width(family))) - 1n) ^ ((1n << BigInt(width(family) - bits)) - 1n);

/** Parse `10.0.0.0/8` or `fd00::/8`; throws Go's `invalid CIDR address: <s>`. */
export function parseCidr(s: string): Network & { ip: bigint } {
  const [, address, prefix] = /^(.+)\/(\d{1,3})$/.exec(s.trim()) ?? [];
  const ip = address === undefined ? undefined : ipToBigInt(address);
  const bits = Number(prefix);
  if (prefix === undefined || !ip || bits > width(ip.family)) throw new Error(`invalid CIDR address: ${s}`);
  return { family: ip.family, base: ip.value & mask(ip.family, bits), bits, ip: ip.value };
}

export function networkContainsIp(net: Network, ip: string): boolean {
  const addr = ipToBigInt(ip);
  if (!addr || addr.family !== net.family) return false;
  return (addr.value & mask(net.family, net.bits)) === net.base;
}

/** linkerd's cluterNetworksContainCIDR: the CIDR's address is inside, and it is no wider. */
export function networkContainsCidr(net: Network, cidr: Network & { ip: bigint }): boolean {
  if (cidr.family !== net.family) return false;
  return (cidr.ip & mask(net.family, net.bits)) === net.base && cidr.bits >= net.bits;
}
