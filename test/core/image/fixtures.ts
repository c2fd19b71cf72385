import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeApk, makeDeb, writeApkIndex } from '../../support/packages.js';

/**
 * A small Debian repository exercising the resolver: alternatives, a virtual package, a
 * version choice, a dependency cycle, and files with owners, set-uid modes, links.
 */
export async function debRepository(dir: string, arch = 'amd64'): Promise<void> {
  await makeDeb(dir, {
    name: 'app',
    version: '2.0-1',
    arch,
    depends: 'libssl (>= 3.0) | libssl-compat, mailer, cyc-a',
    compression: 'xz',
    files: [
      { name: './usr/', type: 'directory' },
      { name: './usr/bin/', type: 'directory' },
      { name: './usr/bin/app', content: `#!/bin/sh\necho app ${arch}\n`, mode: 0o755 },
      { name: './usr/bin/app-ping', content: 'ping\n', mode: 0o4755 },
      { name: './usr/bin/app-link', type: 'symlink', linkname: 'app' },
      { name: './usr/bin/app-hard', type: 'link', linkname: './usr/bin/app' },
      { name: './var/', type: 'directory' },
      { name: './var/lib/', type: 'directory' },
      { name: './var/lib/app/', type: 'directory', mode: 0o750, uid: 1000, gid: 1001 },
      { name: './var/lib/app/state', content: 'state\n', mode: 0o640, uid: 1000, gid: 1001 },
    ],
  });
  await makeDeb(dir, { name: 'libssl', version: '3.1.0-1', arch, compression: 'zst', files: [{ name: './usr/lib/libssl.so.3', content: 'ssl3\n' }] });
  await makeDeb(dir, { name: 'libssl', version: '2.9-1', arch, files: [{ name: './usr/lib/libssl.so.2', content: 'ssl2\n' }] });
  await makeDeb(dir, {
    name: 'tinymail',
    version: '1.0',
    arch: 'all',
    provides: 'mailer',
    files: [{ name: './usr/sbin/sendmail', content: 'mail\n', mode: 0o755 }],
  });
  await makeDeb(dir, { name: 'cyc-a', arch, depends: 'cyc-b', files: [{ name: './etc/cyc-a', content: 'a\n' }] });
  await makeDeb(dir, { name: 'cyc-b', arch, depends: 'cyc-a (>= 1.0)', compression: 'none', files: [{ name: './etc/cyc-b', content: 'b\n' }] });
  await makeDeb(dir, { name: 'unused', arch, files: [{ name: './etc/unused', content: 'x\n' }] });
}

/** An apk repository (APKINDEX.tar.gz under DIR/ARCH/) for one or more archs. */
export async function apkRepository(dir: string, archs = ['x86_64']): Promise<void> {
  for (const arch of archs) {
    const d = join(dir, arch);
    const records = [
      (
        await makeApk(d, {
          name: 'hello',
          version: '1.2.3-r1',
          arch,
          depends: ['so:libc.so.6', 'busybox>=1.36'],
          files: [
            { name: 'usr', type: 'directory' },
            { name: 'usr/bin', type: 'directory' },
            { name: 'usr/bin/hello', content: `hello ${arch}\n`, mode: 0o755 },
          ],
        })
      ).record,
      (
        await makeApk(d, {
          name: 'glibc',
          version: '2.40-r0',
          arch,
          provides: ['so:libc.so.6=6'],
          files: [{ name: 'lib/libc.so.6', content: 'libc\n', mode: 0o755 }],
        })
      ).record,
      (
        await makeApk(d, {
          name: 'busybox',
          version: '1.36.1-r5',
          arch,
          signed: false,
          files: [
            { name: 'bin/busybox', content: 'bb\n', mode: 0o755 },
            { name: 'bin/sh', type: 'symlink', linkname: '/bin/busybox' },
          ],
        })
      ).record,
      (await makeApk(d, { name: 'busybox', version: '1.35.0-r0', arch, files: [{ name: 'bin/busybox', content: 'old\n', mode: 0o755 }] })).record,
    ];
    await writeApkIndex(d, records);
  }
}

export function writeConfig(dir: string, name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
