import { describe, expect, it } from 'vitest';
import { parseApkIndex } from '../../../src/core/image/apk.js';
import type { PackageMeta } from '../../../src/core/image/packageMeta.js';
import { resolveClosure } from '../../../src/core/image/resolve.js';

/** APKINDEX text: one record per [name, dependencies]. */
function apkIndex(records: [string, string[]][]): string {
  return records.map(([name, deps]) => `P:${name}\nV:1.0-r0\nA:x86_64\n${deps.length ? `D:${deps.join(' ')}\n` : ''}`).join('\n');
}

/**
 * The packages, each behind a proxy that counts how often the resolver reads a field and throws
 * past `budget` reads: work is bounded by a counter, not a clock.
 */
function counted(packages: PackageMeta[], budget: number): { packages: PackageMeta[]; reads: () => number } {
  let reads = 0;
  const wrap = (p: PackageMeta) =>
    new Proxy(p, {
      get(target, key, receiver) {
        if (++reads > budget) throw new Error(`more than ${budget} reads of package fields`);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  return { packages: packages.map(wrap), reads: () => reads };
}

describe('closure resolution scales with the index', () => {
  it('resolves an APKINDEX dependency chain 5,000 deep, dependencies first', () => {
    const n = 5000;
    const records: [string, string[]][] = Array.from({ length: n }, (_, i) => [`p${i}`, i + 1 < n ? [`p${i + 1}`] : []]);
    const available = counted(parseApkIndex(apkIndex(records), 'repo', undefined), 200 * n);
    const order = resolveClosure(['p0'], available.packages, 'x86_64').packages.map((p) => p.name);
    expect(order).toHaveLength(n);
    expect(order[0]).toBe(`p${n - 1}`);
    expect(order.at(-1)).toBe('p0');
  });

  it('a package depending on 60,000 others costs a bounded number of reads per dependency', () => {
    const n = 60_000;
    const deps = Array.from({ length: n }, (_, i) => `d${i}`);
    const records: [string, string[]][] = [['top', deps], ...deps.map((d): [string, string[]] => [d, ['top']])];
    const available = counted(parseApkIndex(apkIndex(records), 'repo', undefined), 100 * n);
    const order = resolveClosure(['top'], available.packages, 'x86_64').packages;
    expect(order).toHaveLength(n + 1);
    expect(order.at(-1)?.name).toBe('top');
    expect(available.reads()).toBeLessThan(100 * n);
  });

  it('names a missing dependency at the end of a long chain with the chain shortened to one line', () => {
    const n = 3000;
    const records: [string, string[]][] = Array.from({ length: n }, (_, i) => [`p${i}`, [i + 1 < n ? `p${i + 1}` : 'gone']]);
    expect(() => resolveClosure(['p0'], parseApkIndex(apkIndex(records), 'repo', undefined), 'x86_64')).toThrow(
      /^x86_64: gone, needed by p2999 1\.0-r0 \(via p0 → p1 → p2 → p3 → … 2991 more … → p2995 → p2996 → p2997 → p2998\), is not in the repositories$/,
    );
  });
});
