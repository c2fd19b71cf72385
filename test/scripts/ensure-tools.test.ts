import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/*
 * scripts/ensure-tools.sh on a machine that lacks some tools: a PATH of links to every command
 * this machine has except the ones taken away. Every case here ends before apt-get could run
 * (not root, or no apt-get on PATH), so nothing is installed and nothing leaves the machine.
 */
const root = mkdtempSync(join(tmpdir(), 'ensure-tools-'));
chmodSync(root, 0o755);
mkdirSync(join(root, 'scripts'));
mkdirSync(join(root, '.ci'));
// A copy every user can read (a checkout under /root is not), with the helper it calls beside it.
copyFileSync(join(REPO_ROOT, 'scripts/ensure-tools.sh'), join(root, 'scripts/ensure-tools.sh'));
copyFileSync(join(REPO_ROOT, '.ci/debian-packages'), join(root, '.ci/debian-packages'));
chmodSync(join(root, 'scripts/ensure-tools.sh'), 0o755);
chmodSync(join(root, '.ci/debian-packages'), 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let shadows = 0;
/** A directory of links to the commands on PATH, without `removed`. */
function pathWithout(...removed: string[]): string {
  const dir = join(root, `bin${String(shadows++)}`);
  mkdirSync(dir, { mode: 0o755 });
  for (const from of (process.env.PATH ?? '').split(delimiter)) {
    if (!from || !existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (removed.includes(name) || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}

/** A TMPDIR whose Debian-package cache is complete (or empty), so no download is attempted. */
function tmpWith(cache: boolean): string {
  const dir = mkdtempSync(join(root, 'tmp-'));
  chmodSync(dir, 0o777);
  if (cache) {
    mkdirSync(join(dir, 'linkerd-image-debian-packages'));
    writeFileSync(join(dir, 'linkerd-image-debian-packages/.complete-iptables_libcap2-bin_ca-certificates'), '');
  }
  return dir;
}

const isRoot = process.geteuid?.() === 0;

/** Runs the script as a user who is not root: as `nobody` when the tests run as root. */
function runAsUser(path: string, tmp: string) {
  const bash = join(path, 'bash');
  const command = isRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', bash] : [bash];
  return spawnSync(command[0]!, [...command.slice(1), join(root, 'scripts/ensure-tools.sh')], {
    env: { PATH: path, TMPDIR: tmp, HOME: tmp },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('scripts/ensure-tools.sh', () => {
  it('as a user who is not root, stops with one line naming the package of a missing tool', () => {
    const r = runAsUser(pathWithout('zstd'), tmpWith(true));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'ensure-tools: missing system tools for the tests: install the Debian packages zstd (apt-get install -y zstd), or run npm test as root\n',
    );
  });

  it('names every missing package once, in one line, in the order of the table', () => {
    const r = runAsUser(pathWithout('skopeo', 'getfattr', 'getcap', 'htpasswd', 'kubectl'), tmpWith(true));
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toContain('install the Debian packages kubectl skopeo apache2-utils attr libcap2-bin (apt-get install -y kubectl skopeo');
  });

  it('without apt-get on PATH, it is told what to install (even as root) instead of installing it', () => {
    const path = pathWithout('apt-get', 'umoci');
    const r = spawnSync(join(path, 'bash'), [join(root, 'scripts/ensure-tools.sh')], {
      env: { PATH: path, TMPDIR: tmpWith(true) },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^ensure-tools: missing system tools for the tests: install the Debian packages umoci apt \(apt-get install -y umoci apt\)/);
  });

  it('says nothing and exits 0 when every tool and the Debian packages are there', () => {
    const r = runAsUser(pathWithout(), tmpWith(true));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('as a user who cannot download the Debian packages the image tests use, says which in one line', () => {
    const path = pathWithout();
    // apt-cache fails as it would on a machine without package lists; nothing is fetched.
    rmSync(join(path, 'apt-cache'));
    writeFileSync(join(path, 'apt-cache'), '#!/bin/sh\nexit 100\n', { mode: 0o755 });
    const r = runAsUser(path, tmpWith(false));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'ensure-tools: cannot download the Debian packages the image tests use (iptables libcap2-bin ca-certificates): run npm test as root, or as root: apt-get update\n',
    );
  });
});
