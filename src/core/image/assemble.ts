import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { openApkData, readApkMeta } from './apk.js';
import { capabilityXattr, parseCapabilities } from './capabilities.js';
import type { ImageConfig } from './config.js';
import { throwIfInterrupted } from './interrupted.js';
import type { Keyring } from './keyring.js';
import { openDebData } from './deb.js';
import type { PackageMeta } from './packageMeta.js';
import { tarEntries } from './tarEntries.js';
import { entryPath, type RootTree, type TreeNode } from './tree.js';

/*
 * Fills the tree in apko's order: packages, accounts, paths; then what apko lacks: local files
 * and file capabilities; then the package databases (dpkg status, apk installed) so scanners see
 * what went in.
 */

const MAX_ETC_FILE = 4 << 20;

/** Unpacks every package's data into the tree (verifying apk checksums on the way). */
export async function installPackages(
  tree: RootTree,
  packages: PackageMeta[],
  keyring: Keyring,
  signal: AbortSignal | undefined,
  progress: (s: string) => void,
): Promise<PackageMeta[]> {
  const installed: PackageMeta[] = [];
  for (const [i, indexed] of packages.entries()) {
    progress(`reading packages (${i + 1}/${packages.length}) ${indexed.label}`);
    if (indexed.format === 'apk') {
      const st = await stat(indexed.file).catch(() => undefined);
      if (!st?.isFile()) throw new UserError(`${indexed.label}: listed in APKINDEX but missing from the repository`);
    }
    const meta = indexed.format === 'apk' ? await readApkMeta(indexed.file, indexed, keyring) : indexed;
    const data = meta.format === 'apk' ? await openApkData(meta) : await openDebData(meta);
    for await (const entry of tarEntries(data, meta.label, 'data')) {
      throwIfInterrupted(signal);
      await tree.addPackageEntry(entry, meta.label, meta.name);
    }
    installed.push(meta);
  }
  return installed;
}

async function existingText(tree: RootTree, path: string): Promise<string> {
  const n = tree.get(path);
  if (!n || n.type !== 'file' || !n.data) return '';
  if ('bytes' in n.data) return n.data.bytes.toString('utf8');
  if (n.size > MAX_ETC_FILE) throw new UserError(`/${path} from ${n.owner} is larger than ${MAX_ETC_FILE} bytes`);
  return readFile(n.data.path, 'utf8');
}

function generated(text: string, epoch: number, owner: string, mode = 0o644): TreeNode {
  const bytes = Buffer.from(text);
  return { type: 'file', mode, uid: 0, gid: 0, mtime: epoch, size: bytes.length, data: { bytes }, owner };
}

/** accounts: users appended to /etc/passwd (home 0700, owned by the user), groups to /etc/group. */
export async function addAccounts(tree: RootTree, c: ImageConfig, epoch: number): Promise<void> {
  const users = c.accounts?.users ?? [];
  const groups = c.accounts?.groups ?? [];
  if (users.length > 0) {
    let passwd = await existingText(tree, 'etc/passwd');
    if (passwd && !passwd.endsWith('\n')) passwd += '\n';
    for (const u of users) {
      const home = u.homedir ?? `/home/${u.username}`;
      passwd = passwd
        .split('\n')
        .filter((l) => !l.startsWith(`${u.username}:`))
        .join('\n');
      passwd += `${passwd && !passwd.endsWith('\n') ? '\n' : ''}${u.username}:x:${u.uid}:${u.gid ?? u.uid}:Account created by linkerd image build:${home}:${u.shell ?? '/bin/sh'}\n`;
      const path = entryPath(home.replace(/^\//, ''), 'accounts.users');
      if (path && !tree.get(path))
        tree.set(path, { type: 'dir', mode: 0o700, uid: u.uid, gid: u.gid ?? u.uid, mtime: epoch, size: 0, owner: 'accounts' }, `accounts.users ${u.username}`);
    }
    tree.set('etc/passwd', generated(passwd, epoch, 'accounts'), 'accounts');
  }
  if (groups.length > 0) {
    let group = await existingText(tree, 'etc/group');
    if (group && !group.endsWith('\n')) group += '\n';
    for (const g of groups) group += `${g.groupname}:x:${g.gid}:${(g.members ?? []).join(',')}\n`;
    tree.set('etc/group', generated(group, epoch, 'accounts'), 'accounts');
  }
}

/** paths: directories, empty files, links and permission changes, as apko applies them. */
export function applyPaths(tree: RootTree, c: ImageConfig, epoch: number): void {
  for (const [i, p] of (c.paths ?? []).entries()) {
    const where = `paths[${i}] (${p.path})`;
    const path = entryPath(p.path.slice(1), where);
    const own = { uid: p.uid ?? 0, gid: p.gid ?? 0, mtime: epoch, size: 0, owner: 'paths' };
    switch (p.type) {
      case 'directory': {
        let cur = '';
        for (const part of path.split('/')) {
          cur = cur ? `${cur}/${part}` : part;
          const existing = tree.get(tree.resolve(cur, true, where));
          if (!existing) tree.set(cur, { type: 'dir', mode: 0o755, ...own }, where);
        }
        const real = tree.resolve(path, true, where);
        const n = tree.get(real);
        if (n?.type !== 'dir') throw new UserError(`${where}: exists and is not a directory`);
        tree.nodes.set(real, { ...n, mode: p.permissions ?? n.mode, uid: own.uid, gid: own.gid });
        break;
      }
      case 'empty-file':
        tree.set(path, { type: 'file', mode: p.permissions ?? 0o644, ...own, data: { bytes: Buffer.alloc(0) } }, where);
        break;
      case 'symlink':
        tree.set(path, { type: 'symlink', mode: 0o777, ...own, linkname: p.source ?? '' }, where);
        break;
      case 'hardlink': {
        const target = tree.resolve(entryPath((p.source ?? '').replace(/^\//, ''), where), true, where);
        if (tree.get(target)?.type !== 'file') throw new UserError(`${where}: hard link source ${p.source ?? ''} is not a file in the image`);
        tree.set(path, { type: 'link', mode: 0o644, ...own, linkname: target }, where);
        break;
      }
      case 'permissions': {
        const real = tree.resolve(path, true, where);
        const targets = p.recursive ? [...tree.nodes.keys()].filter((k) => k === real || k.startsWith(`${real}/`)) : [real];
        if (!tree.get(real)) throw new UserError(`${where}: no such path in the image`);
        for (const t of targets) {
          const n = tree.get(t);
          if (n) tree.nodes.set(t, { ...n, mode: p.permissions ?? n.mode, uid: p.uid ?? n.uid, gid: p.gid ?? n.gid });
        }
        break;
      }
    }
  }
}

/** files: local files into the image, with mode, owner and capabilities. */
export async function addFiles(tree: RootTree, c: ImageConfig, baseDir: string, epoch: number): Promise<string[]> {
  const sources: string[] = [];
  for (const [i, f] of (c.files ?? []).entries()) {
    const where = `files[${i}] (${f.path})`;
    const src = isAbsolute(f.source) ? f.source : resolve(baseDir, f.source);
    const st = await stat(src).catch(() => undefined);
    if (!st) throw new UserError(`${where}: source ${f.source} does not exist`);
    if (!st.isFile()) throw new UserError(`${where}: source ${f.source} is not a regular file`);
    const node: TreeNode = {
      type: 'file',
      mode: f.mode ?? (st.mode & 0o111 ? 0o755 : 0o644),
      uid: f.uid ?? 0,
      gid: f.gid ?? 0,
      mtime: epoch,
      size: st.size,
      data: { path: src },
      owner: 'files',
    };
    if (f.capabilities) node.xattrs = new Map([['security.capability', capabilityXattr(parseCapabilities(f.capabilities, where))]]);
    tree.set(entryPath(f.path.slice(1), where), node, where);
    sources.push(src);
  }
  return sources;
}

/** capabilities: the security.capability xattr on files already in the image (following links). */
export function applyCapabilities(tree: RootTree, c: ImageConfig): void {
  for (const [i, e] of (c.capabilities ?? []).entries()) {
    const where = `capabilities[${i}] (${e.path})`;
    let real = tree.resolve(entryPath(e.path.slice(1), where), true, where);
    let n = tree.get(real);
    if (n?.type === 'link') {
      real = n.linkname ?? real;
      n = tree.get(real);
    }
    if (n?.type !== 'file') throw new UserError(`${where}: no such file in the image`);
    const xattrs = new Map(n.xattrs ?? []);
    xattrs.set('security.capability', capabilityXattr(parseCapabilities(e.capabilities, where)));
    tree.nodes.set(real, { ...n, xattrs });
  }
}

/**
 * /var/lib/dpkg/status and /lib/apk/db/installed for the installed packages, and apko's
 * runtime_repositories as /etc/apk/repositories (what `apk` in the running image would use).
 */
export function addPackageDatabases(tree: RootTree, installed: PackageMeta[], epoch: number, runtimeRepositories: readonly string[] = []): void {
  if (runtimeRepositories.length > 0)
    tree.set('etc/apk/repositories', generated(`${runtimeRepositories.join('\n')}\n`, epoch, 'contents.runtime_repositories'), 'contents.runtime_repositories');
  const debs = installed.filter((p) => p.format === 'deb').sort((a, b) => (a.name < b.name ? -1 : 1));
  if (debs.length > 0) {
    const status = debs
      .map((p) =>
        (p.control ?? '')
          .split('\n')
          .flatMap((l, i) => (i === 1 ? ['Status: install ok installed', l] : [l]))
          .join('\n'),
      )
      .join('\n\n');
    tree.set('var/lib/dpkg/status', generated(`${status}\n`, epoch, 'dpkg'), 'dpkg');
  }
  const apks = installed.filter((p) => p.format === 'apk').sort((a, b) => (a.name < b.name ? -1 : 1));
  if (apks.length > 0) {
    const files = new Map<string, string[]>();
    for (const path of tree.sortedPaths()) {
      const n = tree.get(path);
      if (!n || n.type === 'dir') continue;
      const list = files.get(n.owner) ?? [];
      list.push(path);
      files.set(n.owner, list);
    }
    const records = apks.map((p) => {
      const lines = [`C:${p.checksum ?? ''}`, `P:${p.name}`, `V:${p.version}`, `A:${p.arch}`, `t:${p.buildTime}`];
      if (p.license) lines.push(`L:${p.license}`);
      if (p.origin) lines.push(`o:${p.origin}`);
      let dir: string | undefined;
      for (const f of files.get(p.name) ?? []) {
        const d = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '';
        if (d !== dir) {
          lines.push(`F:${d}`);
          dir = d;
        }
        lines.push(`R:${f.slice(f.lastIndexOf('/') + 1)}`);
      }
      return lines.join('\n');
    });
    tree.set('lib/apk/db/installed', generated(`${records.join('\n\n')}\n\n`, epoch, 'apk'), 'apk');
  }
}
