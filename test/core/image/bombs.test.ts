import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { decompress } from '../../../src/core/image/decompress.js';
import type { StagingLimits } from '../../../src/core/image/stagingBudget.js';
import { isUserError } from '../../../src/core/errors.js';
import { arArchive, compress, makeDeb, tarBuffer, type TarItem } from '../../support/packages.js';
import { writeConfig } from './fixtures.js';
import { scratch } from './helpers.js';

/** A zstd frame of raw blocks holding `data`, with the given header after the magic number. */
function zstdFrame(header: number[], data: Buffer): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length || blocks.length === 0; at += 100_000) {
    const body = data.subarray(at, at + 100_000);
    const last = at + 100_000 >= data.length ? 1 : 0;
    const v = last | (body.length << 3);
    blocks.push(Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff]), body);
  }
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, ...header]), ...blocks]);
}

describe('image build: package bombs', () => {
  const s = scratch('bombs');
  let n = 0;
  let dir: string;
  beforeEach(() => {
    dir = join(s.dir, String(n++));
    mkdirSync(dir);
  });
  afterAll(() => s.remove());

  async function debWithZstdData(header: number[]): Promise<string> {
    const control = compress(await tarBuffer([{ name: './control', content: 'Package: evil\nVersion: 1\nArchitecture: amd64\n' }]), 'gz');
    const data = zstdFrame(header, await tarBuffer([{ name: './etc/evil', content: 'evil\n' }]));
    mkdirSync(join(dir, 'repo'));
    writeFileSync(
      join(dir, 'repo', 'evil.deb'),
      arArchive([
        { name: 'debian-binary', data: Buffer.from('2.0\n') },
        { name: 'control.tar.gz', data: control },
        { name: 'data.tar.zst', data },
      ]),
    );
    return writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [evil]']);
  }

  async function build(config: string, stagingLimits?: StagingLimits): Promise<Error | undefined> {
    return buildImage({ config, cwd: dir, output: join(dir, 'out'), tag: 't/t:1', archs: ['amd64'], packages: [], stagingLimits }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  }

  function expectRefused(err: Error | undefined, message: RegExp): void {
    expect(isUserError(err), String(err)).toBe(true);
    expect(err?.message).toMatch(message);
    expect(err?.message.split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.out.build-'))).toEqual([]);
  }

  it('a 1 KB zstd frame declaring a 1.9 GB window is refused before the decoder allocates it', async () => {
    // window descriptor 0xA7: 2^30 + 7/8 · 2^30 bytes
    const config = await debWithZstdData([0x00, 0xa7]);
    expectRefused(await build(config), /^evil\.deb: data\.tar\.zst: zstd frame declares a 2013265920-byte window, more than the 128 MiB limit$/);
  });

  it('so is a single-segment frame whose content size says 1.5 GB', async () => {
    const size = 1.5 * 1024 ** 3;
    const fcs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => Math.floor(size / 256 ** i) % 256);
    const config = await debWithZstdData([0xe0, ...fcs]);
    expectRefused(await build(config), /^evil\.deb: data\.tar\.zst: zstd frame declares a 1610612736-byte window, more than the 128 MiB limit$/);
  });

  it("walks zstd's own frames (checksums, several frames, a skippable frame between) without refusing them", async () => {
    const a = randomBytes(300_000);
    const b = Buffer.alloc(2_000_000, 7);
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 5, 0, 0, 0]), Buffer.from('skip!')]);
    const streamed = execFileSync('zstd', ['-q', '-c', '--no-content-size', '-C'], { input: b });
    const input = Buffer.concat([compress(a, 'zst'), skippable, streamed]);
    const out = await decompress(Readable.from([input.subarray(0, 7), input.subarray(7)]), 'zst', 1 << 30, 'p', 'data');
    const parts: Buffer[] = [];
    for await (const c of out as AsyncIterable<Buffer>) parts.push(c);
    expect(Buffer.concat(parts).equals(Buffer.concat([a, b]))).toBe(true);
  });

  it('a frame with a window at the limit (128 MiB) is read', async () => {
    const config = await debWithZstdData([0x00, 17 << 3]);
    expect(await build(config)).toBeUndefined();
  });

  async function twoPackages(files: (i: number) => TarItem[]): Promise<string> {
    for (const name of ['one', 'two']) await makeDeb(join(dir, 'repo'), { name, files: files(name === 'one' ? 0 : 1) });
    return writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [one, two]']);
  }

  it('entries: two packages each under every per-package limit exceed the build-wide budget together', async () => {
    const config = await twoPackages((p) => Array.from({ length: 600 }, (_, i) => ({ name: `./usr/share/p${p}/f${i}`, content: '' })));
    expectRefused(
      await build(config, { bytes: 1 << 30, entries: 1000 }),
      /^two_1\.0-1_amd64\.deb: \.\/usr\/share\/p1\/f\d+: the build's packages hold more than 1000 entries, the limit for one image build$/,
    );
  });

  it('bytes: two packages of 600 KiB each exceed a 1 MiB build-wide budget while the second is staged', async () => {
    const config = await twoPackages((p) => [{ name: `./usr/share/blob${p}`, content: Buffer.alloc(600 << 10, p + 1) }]);
    expectRefused(
      await build(config, { bytes: 1 << 20, entries: 1000 }),
      /^two_1\.0-1_amd64\.deb: \.\/usr\/share\/blob1: the build's packages unpack to more than 1 MiB, the limit for one image build$/,
    );
  });
});
