/*
 * Version ordering of the two package worlds: Debian's (deb-version(7): epoch, upstream,
 * revision; `~` sorts before everything) and apk's (apk-tools: dotted numbers, a letter,
 * `_alpha`…`_p` suffixes, `-rN`).
 */

function debOrder(c: string | undefined): number {
  if (c === undefined) return 0;
  if (c === '~') return -1;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

function debPart(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let diff = 0;
    while ((i < a.length && !/\d/.test(a.charAt(i))) || (j < b.length && !/\d/.test(b.charAt(j)))) {
      const ac = i < a.length && !/\d/.test(a.charAt(i)) ? debOrder(a.charAt(i)) : 0;
      const bc = j < b.length && !/\d/.test(b.charAt(j)) ? debOrder(b.charAt(j)) : 0;
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a.charAt(i) === '0') i++;
    while (b.charAt(j) === '0') j++;
    while (/\d/.test(a.charAt(i)) && /\d/.test(b.charAt(j))) {
      if (!diff) diff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (/\d/.test(a.charAt(i))) return 1;
    if (/\d/.test(b.charAt(j))) return -1;
    if (diff) return diff;
  }
  return 0;
}

function debSplit(v: string): [number, string, string] {
  const colon = v.indexOf(':');
  const epoch = colon > 0 ? Number(v.slice(0, colon)) || 0 : 0;
  const rest = colon > 0 ? v.slice(colon + 1) : v;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? [epoch, rest.slice(0, dash), rest.slice(dash + 1)] : [epoch, rest, '0'];
}

export function compareDebVersions(a: string, b: string): number {
  const [ea, ua, ra] = debSplit(a);
  const [eb, ub, rb] = debSplit(b);
  if (ea !== eb) return ea - eb;
  return debPart(ua, ub) || debPart(ra, rb);
}

const APK_SUFFIX: Record<string, number> = { alpha: -4, beta: -3, pre: -2, rc: -1, cvs: 1, svn: 2, git: 3, hg: 4, p: 5 };

type ApkToken = [kind: number, value: number | string];

function apkTokens(v: string): ApkToken[] {
  const out: ApkToken[] = [];
  const re = /(\d+)|([a-z])(?=$|[._-])|_([a-z]+)(\d*)|-r(\d+)|[.]/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while (last < v.length && (m = re.exec(v)) !== null) {
    last = re.lastIndex;
    if (m[1] !== undefined) out.push([1, Number(m[1])]);
    else if (m[2] !== undefined) out.push([2, m[2]]);
    else if (m[3] !== undefined) out.push([3, APK_SUFFIX[m[3]] ?? 0], [1, Number(m[4] || 0)]);
    else if (m[5] !== undefined) out.push([4, Number(m[5])]);
  }
  if (last < v.length) out.push([5, v.slice(last)]);
  return out;
}

/**
 * Where two versions first differ in token kind, apk orders: a pre-release suffix (`_rc1`) <
 * the end of the version < a revision (`-r1`) < a post-release suffix (`_p1`) < a letter < a number.
 */
function apkRank(t: ApkToken | undefined): number {
  if (!t) return 0;
  switch (t[0]) {
    case 1:
      return 4;
    case 2:
      return 3;
    case 3:
      return Number(t[1]) < 0 ? -1 : 2;
    case 4:
      return 1;
    default:
      return 5;
  }
}

export function compareApkVersions(a: string, b: string): number {
  const ta = apkTokens(a);
  const tb = apkTokens(b);
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const x = ta[i];
    const y = tb[i];
    if (!x || !y || x[0] !== y[0]) {
      const d = apkRank(x) - apkRank(y);
      if (d) return d;
      continue;
    }
    if (x[1] !== y[1]) return typeof x[1] === 'number' && typeof y[1] === 'number' ? x[1] - y[1] : String(x[1]) < String(y[1]) ? -1 : 1;
  }
  return 0;
}

export type Relation = '<<' | '<=' | '=' | '>=' | '>>' | '<' | '>' | '~';

/** Whether `version` satisfies `rel wanted` under the given ordering. */
export function satisfies(version: string, rel: Relation, wanted: string, compare: (a: string, b: string) => number): boolean {
  const c = compare(version, wanted);
  switch (rel) {
    case '<<':
      return c < 0;
    case '<':
      // Debian's deprecated `<` means `<=`; apk's means strictly less. Callers pass apk's as '<<'.
      return c <= 0;
    case '<=':
      return c <= 0;
    case '=':
      return c === 0;
    case '>=':
      return c >= 0;
    case '>':
      return c >= 0;
    case '>>':
      return c > 0;
    case '~':
      return version === wanted || version.startsWith(`${wanted}.`) || version.startsWith(`${wanted}-`);
  }
}
