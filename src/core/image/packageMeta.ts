import type { Relation } from './versions.js';

/** A dependency on a name, optionally with a version relation. */
export interface Dependency {
  name: string;
  rel?: Relation;
  version?: string;
}

/** A package's identity and relations, whichever format it came from. */
export interface PackageMeta {
  format: 'deb' | 'apk';
  name: string;
  version: string;
  arch: string;
  /** Each entry is a list of alternatives (`a | b` in Debian; apk has one per entry). */
  depends: Dependency[][];
  provides: Dependency[];
  /** The package file. */
  file: string;
  /** The name in messages: the file's base name. */
  label: string;
  /** Build time, seconds since the epoch (apk `builddate`/`t:`, a .deb's data member mtime). */
  buildTime: number;
  license?: string;
  description?: string;
  origin?: string;
  homepage?: string;
  /** apk: the APKINDEX `C:` checksum of the control section; the `.PKGINFO` datahash. */
  checksum?: string;
  datahash?: string;
  /** deb: the control stanza, written into /var/lib/dpkg/status. */
  control?: string;
  installedSize?: number;
  /** sha256 of the package file, for the SBOM. */
  sha256?: string;
  /** The repository tag (`@tag dir`), when the repository has one. */
  tag?: string;
}

/** `name (>= 1.2)`, `name:any`, alternatives with `|` — one Debian relationship field. */
export function parseDebDepends(field: string | undefined): Dependency[][] {
  if (!field) return [];
  return field
    .split(',')
    .map((group) =>
      group
        .split('|')
        .map((alt) => {
          const m = /^\s*([^\s(:[]+)(?::[a-z0-9-]+)?\s*(?:\(\s*(<<|<=|>=|>>|=|<|>)\s*([^)\s]+)\s*\))?/.exec(alt);
          if (!m?.[1]) return undefined;
          const dep: Dependency = { name: m[1] };
          if (m[2] && m[3]) {
            dep.rel = m[2] as Relation;
            dep.version = m[3];
          }
          return dep;
        })
        .filter((d): d is Dependency => d !== undefined),
    )
    .filter((g) => g.length > 0);
}

/** apk's `name`, `name>=1.2`, `so:libc.so.6`, `name~1.2`; `!name` (a conflict) is undefined. */
export function parseApkDependency(text: string): Dependency | undefined {
  if (text.startsWith('!')) return undefined;
  const m = /^([^<>=~]+)(?:(>=|<=|><|=|<|>|~)(.+))?$/.exec(text);
  if (!m?.[1]) return undefined;
  const dep: Dependency = { name: m[1] };
  if (m[2] && m[3]) {
    const rel = m[2];
    dep.rel = rel === '<' ? '<<' : rel === '>' ? '>>' : (rel as Relation);
    dep.version = m[3];
  }
  return dep;
}

/** Parses an RFC 822-style stanza (Debian control) into fields; continuation lines are kept. */
export function parseStanza(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let key: string | undefined;
  for (const line of text.split('\n')) {
    if (/^\s/.test(line) && key) out.set(key, `${out.get(key) ?? ''}\n${line}`);
    else {
      const i = line.indexOf(':');
      if (i > 0) {
        key = line.slice(0, i);
        out.set(key, line.slice(i + 1).trim());
      }
    }
  }
  return out;
}
