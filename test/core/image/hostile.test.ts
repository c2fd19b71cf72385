import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { isUserError } from '../../../src/core/errors.js';
import { makeApk, makeDeb, signingKey, writeApkIndex, type SigningKey, type TarItem } from '../../support/packages.js';
import { writeConfig } from './fixtures.js';
import { scratch } from './helpers.js';

/*
 * Hostile or broken input: each is refused with one UserError naming the package and the entry,
 * and nothing is left behind — no output, no temporary directory next to it.
 */
describe('image build refuses hostile and broken input', () => {
  const s = scratch('hostile');
  let n = 0;
  let dir: string;
  beforeEach(() => {
    dir = join(s.dir, String(n++));
    mkdirSync(dir);
  });
  afterAll(() => s.remove());

  async function refused(opts: { packages?: string[]; config?: string; output?: string }, message: RegExp): Promise<void> {
    const output = opts.output ?? join(dir, 'out');
    const before = readdirSync(dir).sort();
    const err: unknown = await buildImage({ config: opts.config, cwd: dir, output, tag: 't/t:1', archs: ['amd64'], packages: opts.packages ?? [] }).catch(
      (e: unknown) => e,
    );
    expect(isUserError(err), String(err)).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message.split('\n')).toHaveLength(1);
    expect(existsSync(output) && !before.includes('out')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(before);
  }

  async function debWith(files: TarItem[]): Promise<string> {
    const repo = join(dir, 'repo');
    await makeDeb(repo, { name: 'evil', files });
    writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [evil]']);
    return join(dir, 'c.yml');
  }

  it('an entry with ".."', async () => {
    await refused(
      { config: await debWith([{ name: './usr/../../etc/passwd', content: 'x' }]) },
      /^evil_1\.0-1_amd64\.deb: \.\/usr\/\.\.\/\.\.\/etc\/passwd: path with "\.\."/,
    );
  });

  it('an absolute entry', async () => {
    await refused({ config: await debWith([{ name: '/etc/shadow', content: 'x' }]) }, /^evil_1\.0-1_amd64\.deb: \/etc\/shadow: absolute path/);
  });

  it('a symlink pointing out of the root', async () => {
    await refused(
      { config: await debWith([{ name: './usr/lib/escape', type: 'symlink', linkname: '../../../../etc/shadow' }]) },
      /evil_1\.0-1_amd64\.deb: \.\/usr\/lib\/escape: symbolic link to \.\.\/\.\.\/\.\.\/\.\.\/etc\/shadow points outside/,
    );
  });

  it('a hard link out of the root, and one to a file the package does not have', async () => {
    await refused(
      { config: await debWith([{ name: './usr/bin/x', type: 'link', linkname: '../../etc/passwd' }]) },
      /evil_1\.0-1_amd64\.deb: \.\.\/\.\.\/etc\/passwd: path with "\.\."/,
    );
    rmSync(join(dir, 'repo'), { recursive: true });
    await refused(
      { config: await debWith([{ name: './usr/bin/x', type: 'link', linkname: './etc/passwd' }]) },
      /evil_1\.0-1_amd64\.deb: \.\/usr\/bin\/x: hard link to \.\/etc\/passwd/,
    );
  });

  it('device files and fifos', async () => {
    await refused(
      { config: await debWith([{ name: './dev/mem', type: 'character-device' }]) },
      /evil_1\.0-1_amd64\.deb: \.\/dev\/mem: character-device entries are refused/,
    );
    rmSync(join(dir, 'repo'), { recursive: true });
    await refused({ config: await debWith([{ name: './run/pipe', type: 'fifo' }]) }, /\.\/run\/pipe: fifo entries are refused/);
  });

  it('writing through a symlink does not leave the root', async () => {
    // `lib` → `/` then `lib/etc/x`: resolved inside the image, as a chroot would
    const config = await debWith([
      { name: './lib', type: 'symlink', linkname: '/' },
      { name: './lib/etc/x', content: 'x' },
    ]);
    const r = await buildImage({ config, cwd: dir, output: join(dir, 'ok'), tag: 't/t:1', archs: ['amd64'], packages: [], sbom: join(dir, 'sbom.json') });
    expect(r.images[0]?.files.map((f) => f.path)).toContain('/etc/x');
    expect(existsSync(join(dir, 'etc'))).toBe(false);
  });

  it('a corrupt archive and a truncated one', async () => {
    const config = await debWith([{ name: './usr/bin/big', content: randomBytes(100_000) }]);
    const deb = join(dir, 'repo', 'evil_1.0-1_amd64.deb');
    const bytes = readFileSync(deb);
    bytes.fill(0x55, bytes.length - 300, bytes.length - 100);
    writeFileSync(deb, bytes);
    await refused({ config }, /^evil_1\.0-1_amd64\.deb: data\.tar\.gz[^:]*: corrupt or truncated/);
    truncateSync(deb, statSync(deb).size - 400);
    await refused({ config }, /^evil_1\.0-1_amd64\.deb: (data\.tar\.gz: )?truncated or corrupt ar member/);
    writeFileSync(deb, 'not an archive');
    await refused({ config }, /^evil_1\.0-1_amd64\.deb: not a \.deb/);
  });

  async function apkRepo(tamper: (apk: string, records: string[]) => string[]): Promise<string> {
    const repo = join(dir, 'repo', 'x86_64');
    const a = await makeApk(repo, { name: 'evil', files: [{ name: 'usr/bin/evil', content: 'e'.repeat(5000), mode: 0o755 }] });
    await writeApkIndex(repo, tamper(a.file, [a.record]));
    writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [evil]']);
    return join(dir, 'c.yml');
  }

  it('an .apk whose control section does not match APKINDEX', async () => {
    const config = await apkRepo((_f, records) => records.map((r) => r.replace(/^C:Q1./m, 'C:Q1A')));
    await refused({ config }, /^evil-1\.0-r0\.apk: control: checksum Q1\S+ does not match APKINDEX \(Q1A/);
  });

  it('an .apk whose data does not match its datahash', async () => {
    const config = await apkRepo((file, records) => {
      const bytes = readFileSync(file);
      // the last gzip stream is the data: change one byte of its CRC trailer region's body
      bytes[bytes.length - 12] = (bytes[bytes.length - 12] ?? 0) ^ 0xff;
      writeFileSync(file, bytes);
      return records;
    });
    await refused({ config }, /^evil-1\.0-r0\.apk: data(: |\b).*(does not match its datahash|corrupt or truncated)/);
  });

  it('an .apk listed in APKINDEX but missing', async () => {
    const config = await apkRepo((file, records) => {
      rmSync(file);
      return records;
    });
    await refused({ config }, /^evil-1\.0-r0\.apk: listed in APKINDEX but missing/);
  });

  async function signedRepo(packageKey: SigningKey | false, indexKey: SigningKey, ringKey: SigningKey): Promise<string> {
    const repo = join(dir, 'repo', 'x86_64');
    const a = await makeApk(repo, { name: 'evil', signed: packageKey, files: [{ name: 'usr/bin/evil', content: 'e', mode: 0o755 }] });
    await writeApkIndex(repo, [a.record], indexKey);
    writeFileSync(join(dir, ringKey.name), ringKey.publicPem);
    return writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', `  keyring: [./${ringKey.name}]`, '  packages: [evil]']);
  }

  it('apk signatures: a package or index not signed by a keyring key, or whose signature does not verify', async () => {
    const key = signingKey('repo.rsa.pub');
    const other = signingKey('other.rsa.pub');
    const impostor = signingKey('repo.rsa.pub');
    // the good case builds, so the refusals below are about the signatures alone
    const ok = await buildImage({ config: await signedRepo(key, key, key), cwd: dir, output: join(dir, 'ok'), tag: 't/t:1', archs: ['amd64'], packages: [] });
    expect(ok.images[0]?.packages.map((p) => p.name)).toEqual(['evil']);
    rmSync(join(dir, 'ok'), { recursive: true });
    await refused({ config: await signedRepo(false, key, key) }, /^evil-1\.0-r0\.apk: control: is not signed, and contents\.keyring asks for signatures$/);
    await refused(
      { config: await signedRepo(other, key, key) },
      /^evil-1\.0-r0\.apk: control: is signed by other\.rsa\.pub, not by a key in contents\.keyring$/,
    );
    await refused({ config: await signedRepo(impostor, key, key) }, /^evil-1\.0-r0\.apk: control: signature by repo\.rsa\.pub does not verify$/);
    await refused({ config: await signedRepo(key, impostor, key) }, /APKINDEX\.tar\.gz: index: signature by repo\.rsa\.pub does not verify$/);
  });

  it("an interrupted build stops, leaves nothing behind and exits with the signal's code", async () => {
    const config = await debWith([{ name: './usr/bin/x', content: 'x' }]);
    const cases = [
      ['reading packages', undefined, 130],
      ['writing the layer', 'SIGTERM', 143],
      ['writing docker-archive', 'SIGHUP', 129],
    ] as const;
    for (const [at, reason, exitCode] of cases) {
      const stop = new AbortController();
      const before = readdirSync(dir).sort();
      const err: unknown = await buildImage({
        config,
        cwd: dir,
        output: join(dir, 'out.tar'),
        tag: 't/t:1',
        archs: ['amd64'],
        packages: [],
        signal: stop.signal,
        progress: (t) => {
          if (t.includes(at)) stop.abort(reason);
        },
      }).catch((e: unknown) => e);
      // The shell's code for the signal the abort carries (none given: Ctrl-C's 130).
      expect(isUserError(err) && err.exitCode, `${at}: ${String(err)}`).toBe(exitCode);
      expect(readdirSync(dir).sort()).toEqual(before);
    }
  });

  it('an unknown config key, named with its path and line', async () => {
    const config = writeConfig(dir, 'c.yml', ['accounts:', '  users:', '    - username: a', '      uid: 1', '      home: /x']);
    await refused({ config }, /c\.yml:5: accounts\.users\[0\]\.home: unknown key "home"$/);
  });

  it('a files source that does not exist', async () => {
    const config = writeConfig(dir, 'c.yml', ['files:', '  - {path: /usr/bin/proxy, source: ./missing-proxy}']);
    await refused({ config }, /files\[0\] \(\/usr\/bin\/proxy\): source \.\/missing-proxy does not exist/);
  });

  it('an output inside an input', async () => {
    mkdirSync(join(dir, 'repo'));
    writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: []']);
    await refused({ config: join(dir, 'c.yml'), output: join(dir, 'repo', 'image') }, /--output .*repo\/image overlaps the package repository/);
  });

  it('a URL repository without --packages, naming the flag', async () => {
    const config = writeConfig(dir, 'c.yml', ['contents:', '  repositories: [https://packages.example/os]', '  packages: [x]']);
    await refused({ config }, /contents\.repositories\[0\]: https:\/\/packages\.example\/os is a URL.*--packages DIR/);
  });

  it('a missing dependency, named with who needs it', async () => {
    const repo = join(dir, 'repo');
    await makeDeb(repo, { name: 'top', depends: 'middle' });
    await makeDeb(repo, { name: 'middle', depends: 'libgone (>= 2) | libalso-gone' });
    writeConfig(dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [top]']);
    await refused(
      { config: join(dir, 'c.yml') },
      /^x86_64: libgone \(>= 2\) \| libalso-gone, needed by middle 1\.0-1 \(via top\), is not in the repositories$/,
    );
  });
});
