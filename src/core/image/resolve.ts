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

export function resolveClosure(requests: readonly string[], available: readonly PackageMeta[], archName: string): Resolution {
  const byName = new Map<string, PackageMeta[]>();
  const index = (key: string, p: PackageMeta) => {
    const list = byName.get(key) ?? [];
    list.push(p);
    byName.set(key, list);
  };
  for (const p of available) {
    index(p.name, p);
    for (const pr of p.provides) if (pr.name !== p.name) index(pr.name, p);
  }
  const installed = new Map<string, PackageMeta>();
  const order: PackageMeta[] = [];

  const candidates = (dep: Dependency, tag: string | undefined): PackageMeta[] =>
    (byName.get(dep.name) ?? [])
      .filter((p) => (tag === undefined ? p.tag === undefined : p.tag === tag))
      .filter((p) => meets(p, dep))
      .sort((a, b) => {
        const real = Number(b.name === dep.name) - Number(a.name === dep.name);
        if (real) return real;
        const v = compareFor(a)(b.version, a.version);
        if (v) return v;
        return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
      });

  const visit = (p: PackageMeta, chain: string[]) => {
    if (installed.has(p.name)) return;
    installed.set(p.name, p);
    for (const group of p.depends) {
      if (group.some((d) => [...installed.values()].some((q) => meets(q, d)))) continue;
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
        throw new UserError(`${archName}: ${want}, needed by ${p.name} ${p.version}${[...chain].length ? ` (via ${chain.join(' → ')})` : ''},${why}`);
      }
      visit(chosen, [...chain, p.name]);
    }
    order.push(p);
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
    visit(found, []);
  }
  return { packages: order };
}
