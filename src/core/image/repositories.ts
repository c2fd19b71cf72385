import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { readApkIndex } from './apk.js';
import type { Arch } from './archs.js';
import { readDebMeta } from './deb.js';
import type { Keyring } from './keyring.js';
import type { PackageMeta } from './packageMeta.js';

/** A local package repository: a directory of .deb files, or an apk repository (APKINDEX.tar.gz). */
export interface Repository {
  dir: string;
  tag?: string;
  /** Where it was named, for messages. */
  from: string;
}

const MAX_DEPTH = 3;
const MAX_FILES = 100_000;

function isUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

/**
 * The repositories to read: `--packages` directories when given (they replace the config's, so a
 * config naming a URL still builds offline), else the config's directory entries. A URL without
 * `--packages` is an error that names the flag.
 */
export async function localRepositories(
  entries: readonly string[],
  baseDir: string,
  packagesDirs: readonly string[],
  cwd: string,
  source: string,
): Promise<Repository[]> {
  const out: Repository[] = [];
  for (const d of packagesDirs) out.push({ dir: resolve(cwd, d), from: `--packages ${d}` });
  if (packagesDirs.length === 0) {
    for (const [i, raw] of entries.entries()) {
      const m = /^@(\S+)\s+(.+)$/.exec(raw.trim());
      const path = m?.[2] ?? raw.trim();
      const where = `${source}: contents.repositories[${i}]`;
      if (isUrl(path)) {
        throw new UserError(`${where}: ${path} is a URL, and image build reads no network; download the packages and pass their directory with --packages DIR`);
      }
      out.push({ dir: isAbsolute(path) ? path : resolve(baseDir, path), tag: m?.[1], from: where });
    }
  }
  for (const r of out) {
    const st = await stat(r.dir).catch(() => undefined);
    if (!st?.isDirectory()) throw new UserError(`${r.from}: ${r.dir} is not a directory`);
  }
  return out;
}

async function walk(dir: string, depth: number, files: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (files.length > MAX_FILES) throw new UserError(`${dir}: more than ${MAX_FILES} files in a package repository`);
    const p = join(dir, e.name);
    if (e.isDirectory() && depth < MAX_DEPTH) await walk(p, depth + 1, files);
    else if (e.isFile()) files.push(p);
  }
}

/**
 * Every package of `arch` the repositories offer (index records for apk, control files for deb).
 * `debCache` keeps one build from reading a .deb's control twice across archs.
 */
export async function availablePackages(
  repos: readonly Repository[],
  arch: Arch,
  debCache: Map<string, Promise<PackageMeta>>,
  keyring: Keyring,
): Promise<PackageMeta[]> {
  const out: PackageMeta[] = [];
  for (const r of repos) {
    const files: string[] = [];
    await walk(r.dir, 0, files);
    const indexes = [join(r.dir, arch.apk, 'APKINDEX.tar.gz'), join(r.dir, 'APKINDEX.tar.gz')];
    const index = indexes.find((f) => files.includes(f));
    if (index) {
      for (const p of await readApkIndex(index, r.tag, keyring)) if (p.arch === arch.apk || p.arch === 'noarch') out.push(p);
    } else if (files.some((f) => f.endsWith('.apk'))) {
      throw new UserError(`${r.from}: ${r.dir} has .apk files but no APKINDEX.tar.gz (looked in ${arch.apk}/ and the directory itself)`);
    }
    for (const f of files.filter((x) => x.endsWith('.deb'))) {
      let meta = debCache.get(f);
      if (!meta) {
        meta = readDebMeta(f);
        debCache.set(f, meta);
      }
      const m = await meta;
      if (m.arch === arch.deb || m.arch === 'all') out.push({ ...m, tag: r.tag });
    }
  }
  return out;
}
