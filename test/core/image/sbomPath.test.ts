import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { isUserError } from '../../../src/core/errors.js';
import { debRepository, writeConfig } from './fixtures.js';
import { scratch } from './helpers.js';

describe('image build --sbom: the SBOM never replaces an input, and a failing SBOM fails the build', () => {
  const s = scratch('sbom-path');
  let n = 0;
  let dir: string;
  let config: string;
  beforeEach(async () => {
    dir = join(s.dir, String(n++));
    mkdirSync(dir);
    await debRepository(join(dir, 'repo'));
    config = writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [app]']);
  });
  afterAll(() => s.remove());

  const build = (sbom: string) =>
    buildImage({ config, cwd: dir, output: join(dir, 'out'), tag: 't/t:1', archs: ['amd64'], packages: [], sbom }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  async function refused(sbom: string, message: RegExp): Promise<void> {
    const configBefore = readFileSync(config);
    const repoBefore = readdirSync(join(dir, 'repo')).sort();
    const before = readdirSync(dir).sort();
    const err = await build(sbom);
    expect(isUserError(err), String(err)).toBe(true);
    expect(err?.message).toMatch(message);
    expect(err?.message.split('\n')).toHaveLength(1);
    expect(readFileSync(config)).toEqual(configBefore);
    expect(readdirSync(join(dir, 'repo')).sort()).toEqual(repoBefore);
    expect(readdirSync(dir).sort()).toEqual(before);
  }

  it('refuses the config file, a path inside the repository, and a symlink to the config', async () => {
    await refused(config, /^--sbom .*c\.yml overlaps the config file .*c\.yml; write the SBOM somewhere else$/);
    const pkg = readdirSync(join(dir, 'repo')).find((f) => f.endsWith('.deb')) ?? '';
    await refused(join(dir, 'repo', pkg), /^--sbom .*\.deb overlaps the package repository/);
    await refused(join(dir, 'repo', 'sbom.json'), /^--sbom .*repo\/sbom\.json overlaps the package repository/);
    symlinkSync(config, join(dir, 'link.json'));
    await refused(join(dir, 'link.json'), /^--sbom .*link\.json overlaps the config file/);
  });

  it('refuses a path inside the OCI output', async () => {
    await refused(join(dir, 'out', 'sbom.json'), /^--sbom .*out\/sbom\.json overlaps the --output/);
  });

  it('a directory that does not exist fails the build before anything is written', async () => {
    await refused(join(dir, 'missing', 'sbom.json'), /^--sbom .*missing\/sbom\.json: directory .*missing does not exist$/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('writes beside itself, so an SBOM on another file system (tmpfs) is renamed, not copied across', async () => {
    const shm = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/l5d-sbom-') : mkdtempSync(join(dir, 'sbom-'));
    try {
      expect(await build(join(shm, 'sbom.json'))).toBeUndefined();
      expect(JSON.parse(readFileSync(join(shm, 'sbom.json'), 'utf8'))).toMatchObject({ spdxVersion: 'SPDX-2.3' });
      expect(readdirSync(shm)).toEqual(['sbom.json']);
      expect(statSync(join(dir, 'out')).isDirectory()).toBe(true);
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });
});
