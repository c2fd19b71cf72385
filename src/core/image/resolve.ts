import { UserError } from '../errors.js';
import type { Dependency, PackageMeta } from './packageMeta.js';
import { compareApkVersions, compareDebVersions, satisfies, type Relation } from './versions.js';

/*
 * The dependency closure of the requested names: each dependency is met by a package of that
 * name or one that provides it (Debian `Provides`, apk `p:`/so: names), at a version its relation
 * allows; among alternatives the first one that can be met wins; an alternative already installed
 * wins over all. Cycles end because an installed package meets its own name. Choices are the
 * newest version, ties broken by name, so a closure is the same for the same repositories.
 */

function compareFor(p: PackageMeta): (a: string, b: string) => number {
  return p.format === 'deb' ? compareDebVersions : compareApkVersions;
}

function meets(p: PackageMeta, dep: Dependency): boolean {
  const cmp = compareFor(p);
  const versionOk = (v: string | undefined) => !dep.rel || !dep.version || (v !== undefined && satisfies(v, dep.rel, dep.version, cmp));
  if (p.name === dep.name && versionOk(p.version)) return true;
  // A Debian Provides without a version satisfies only unversioned dependencies.
  return p.provides.some((pr) => pr.name === dep.name && (dep.rel ? pr.version !== undefined && versionOk(pr.version) : true));
}

export function describeDep(d: Dependency): string {
  return d.rel && d.version ? `${d.name} (${d.rel} ${d.version})` : d.name;
}

/** `name`, `name=1.2`, `name>=1.2`, `name@tag` as in apko's contents.packages. */
export function parseRequest(text: string): { dep: Dependency; tag?: string } {
  const at = text.indexOf('@');
  const tag = at > 0 ? text.slice(at + 1) : undefined;
  const spec = at > 0 ? text.slice(0, at) : text;
  const m = /^([^<>=~]+)(?:(>=|<=|=|<|>|~)(.+))?$/.exec(spec);
  const dep: Dependency = { name: m?.[1] ?? spec };
  if (m?.[2] && m[3]) {
    dep.rel = m[2] === '<' ? '<<' : m[2] === '>' ? '>>' : (m[2] as Relation);
    dep.version = m[3];
  }
  return { dep, tag };
}

export interface Resolution {
  /** Installed packages, in install order (dependencies before their users where acyclic). */
  packages: PackageMeta[];
}

/** The names of a chain, shortened in the middle: a chain can be thousands of packages long. */
function via(chain: string[]): string {
  const names = chain.length > 8 ? [...chain.slice(0, 4), `… ${chain.length - 8} more …`, ...chain.slice(-4)] : chain;
  return names.length ? ` (via ${names.join(' → ')})` : '';
}

interface Frame {
  p: PackageMeta;
  /** The next dependency group of `p` to meet. */
  next: number;
  parent?: Frame;
}

/**
 * Depth-first, with an explicit stack (a chain thousands deep must not overflow), and every
 * lookup through a map (installed packages by the names they meet), so the work is linear in
 * the dependencies, not in their product.
 */
export function resolveClosure(requests: readonly string[], available: readonly PackageMeta[], archName: string): Resolution {
  const byName = new Map<string, PackageMeta[]>();
  const index = (map: Map<string, PackageMeta[]>, key: string, p: PackageMeta) => {
    const list = map.get(key);
    if (list) list.push(p);
    else map.set(key, [p]);
  };
  for (const p of available) {
    index(byName, p.name, p);
    for (const pr of p.provides) if (pr.name !== p.name) index(byName, pr.name, p);
  }
  const installed = new Map<string, PackageMeta>();
  /** Installed packages under their own name and every name they provide. */
  const installedBy = new Map<string, PackageMeta[]>();
  const order: PackageMeta[] = [];
  const install = (p: PackageMeta) => {
    installed.set(p.name, p);
    index(installedBy, p.name, p);
    for (const pr of p.provides) if (pr.name !== p.name) index(installedBy, pr.name, p);
  };
  const keyOf = (d: Dependency, tag?: string) => `${d.name}\0${d.rel ?? ''}\0${d.version ?? ''}\0${tag ?? ''}`;
  // Installed packages only accumulate, so a dependency met once stays met.
  const met = new Set<string>();
  const isMet = (d: Dependency) => {
    const key = keyOf(d);
    if (met.has(key)) return true;
    const yes = (installedBy.get(d.name) ?? []).some((q) => meets(q, d));
    if (yes) met.add(key);
    return yes;
  };

  const sorted = new Map<string, PackageMeta[]>();
  const candidates = (dep: Dependency, tag: string | undefined): PackageMeta[] => {
    const key = keyOf(dep, tag);
    let list = sorted.get(key);
    if (!list) {
      list = (byName.get(dep.name) ?? [])
        .filter((p) => (tag === undefined ? p.tag === undefined : p.tag === tag))
        .filter((p) => meets(p, dep))
        .sort((a, b) => {
          const real = Number(b.name === dep.name) - Number(a.name === dep.name);
          if (real) return real;
          const v = compareFor(a)(b.version, a.version);
          if (v) return v;
          return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
        });
      sorted.set(key, list);
    }
    return list;
  };

  const chainOf = (f: Frame): string[] => {
    const names: string[] = [];
    for (let g = f.parent; g; g = g.parent) names.push(g.p.name);
    return names.reverse();
  };

  const visit = (root: PackageMeta) => {
    install(root);
    const stack: Frame[] = [{ p: root, next: 0 }];
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      const { p } = top;
      const group = p.depends[top.next++];
      if (!group) {
        stack.pop();
        order.push(p);
        continue;
      }
      if (group.some(isMet)) continue;
      let chosen: PackageMeta | undefined;
      for (const d of group) {
        chosen = candidates(d, undefined).find((c) => {
          const other = installed.get(c.name);
          return !other || other === c;
        });
        if (chosen) break;
      }
      if (!chosen) {
        const want = group.map(describeDep).join(' | ');
        const have = group.flatMap((d) => installed.get(d.name) ?? []);
        const why = have.length ? ` (${have.map((h) => `${h.name} ${h.version}`).join(', ')} is already installed)` : ' is not in the repositories';
        throw new UserError(`${archName}: ${want}, needed by ${p.name} ${p.version}${via(chainOf(top))},${why}`);
      }
      if (installed.has(chosen.name)) continue;
      install(chosen);
      stack.push({ p: chosen, next: 0, parent: top });
    }
  };

  for (const text of requests) {
    const { dep, tag } = parseRequest(text);
    const existing = installed.get(dep.name);
    if (existing) {
      if (!meets(existing, dep))
        throw new UserError(`${archName}: contents.packages asks for ${text}, but ${existing.name} ${existing.version} is already needed`);
      continue;
    }
    const found = candidates(dep, tag)[0];
    if (!found) {
      const any = byName.get(dep.name) ?? [];
      const versions = any.map((p) => `${p.name} ${p.version}`).join(', ');
      throw new UserError(`${archName}: package ${text} (contents.packages) is not in the repositories${versions ? `; they have ${versions}` : ''}`);
    }
    visit(found);
  }
  return { packages: order };
}
