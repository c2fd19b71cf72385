import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { isUserError } from '../../../src/core/errors.js';
import { makeDeb } from '../../support/packages.js';
import { writeConfig } from './fixtures.js';
import { run, scratch } from './helpers.js';

describe('image build: the timestamp fits the formats it is written in', () => {
  const s = scratch('epoch');
  afterAll(() => s.remove());
  let n = 0;

  async function build(opts: { sourceDateEpoch?: number; packageTime?: number; format?: 'oci' | 'docker-archive' }) {
    const dir = join(s.dir, String(n++));
    mkdirSync(dir);
    await makeDeb(join(dir, 'repo'), { name: 'p', files: [{ name: './etc/p', content: 'p\n' }], mtime: opts.packageTime });
    const config = writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [p]']);
    const output = join(dir, opts.format === 'docker-archive' ? 'out.tar' : 'out');
    return buildImage({ config, cwd: dir, output, tag: 't/t:1', archs: ['amd64'], packages: [], sourceDateEpoch: opts.sourceDateEpoch });
  }

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => new Error('built'),
      (e: unknown) => e as Error,
    );

  it('builds at 2^31−1 (2038-01-19T03:14:07Z): tar reads that date back from the archive', async () => {
    const r = await build({ sourceDateEpoch: 2 ** 31 - 1, format: 'docker-archive' });
    const { stdout } = await run('tar', ['--utc', '-tvf', r.output]);
    expect(stdout).toContain('2038-01-19 03:14');
    expect(stdout).not.toMatch(/22[0-9]{2}-|19[0-6][0-9]-/);
  });

  it('refuses SOURCE_DATE_EPOCH past 2^31−1 and past 2^33−1, naming the variable, before building', async () => {
    for (const value of [2 ** 31, 2 ** 33, 99_999_999_999]) {
      const err = await refusal(build({ sourceDateEpoch: value }));
      expect(isUserError(err), String(err)).toBe(true);
      expect(err.message).toBe(`SOURCE_DATE_EPOCH=${value} is past 2038-01-19T03:14:07Z (2147483647), the latest time the image's tar headers hold`);
    }
  });

  it('refuses a package whose build time is past it, when SOURCE_DATE_EPOCH does not set the time', async () => {
    const err = await refusal(build({ packageTime: 2 ** 33 }));
    expect(isUserError(err), String(err)).toBe(true);
    expect(err.message).toMatch(/^p_1\.0-1_amd64\.deb: build time 8589934592 is past 2038-01-19T03:14:07Z .*; set SOURCE_DATE_EPOCH$/);
  });
});
