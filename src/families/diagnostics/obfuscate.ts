import { createHash } from 'node:crypto';

/*
 * `proxy-metrics --obfuscate`. The real command parses the scrape with Prometheus' text parser
 * (expfmt.TextParser), replaces the values of the labels that name peers with the first four bytes
 * of their SHA-256 as hex, and writes every family back with expfmt.MetricFamilyToText. So the output
 * is a re-serialisation, not the input with holes punched in it:
 *   - `# HELP` (only when the input had one, `\` and newlines escaped) then `# TYPE` per family; a
 *     family without a TYPE line is `untyped`; other comments (`# UNIT`, `# EOF`, …) are dropped, and
 *     so is a family with no samples;
 *   - samples of a histogram/summary are regrouped under their family: buckets (plus a `+Inf` bucket
 *     when missing) or quantiles, then `_sum` and `_count`, per label set;
 *   - values as Go's strconv 'g' with shortest precision (`1733440000` → `1.73344e+09`, `1.0` → `1`),
 *     `le`/`quantile` alike; timestamps as integers; label values re-escaped (`\\`, `\n`, `\"`).
 * Families come out in the order they first appear: the real command ranges over a Go map, whose
 * order is random from run to run.
 */

const SENSITIVE = new Set(['authority', 'client_id', 'server_id', 'target_addr', 'dst_service', 'dst_namespace']);

const hashed = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 8);

type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
const TYPES = new Set<string>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

type Label = [name: string, value: string];

interface Metric {
  labels: Label[];
  value: number;
  timestamp?: string;
  /** histogram buckets [upper bound, cumulative count] or summary quantiles [quantile, value] */
  points: [number, number][];
  sum: number;
  count: number;
}

interface Family {
  name: string;
  help?: string;
  type?: MetricType;
  metrics: Metric[];
  /** histogram/summary: label set (without le/quantile) → metric */
  byLabels: Map<string, Metric>;
}

class ParseError extends Error {
  constructor(line: number, why: string) {
    super(`text format parsing error in line ${line}: ${why}`);
  }
}

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** strconv.ParseFloat for the forms metrics use (decimal, exponent, Inf, NaN). */
function parseGoFloat(s: string): number | undefined {
  if (DECIMAL.test(s)) return Number(s);
  if (/^[+-]?inf(inity)?$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return undefined;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), with expfmt's special cases. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return '0';
  const [mantissa = '', expText = '0'] = f.toExponential().split('e');
  const exp = Number(expText);
  // Shortest precision: %e when the exponent is < -4 or >= 6 (eprec is 6 with precision -1).
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
  }
  return String(f);
}

function unescapeLabel(raw: string, line: number): string {
  return raw.replace(/\\(.)/gs, (_m, c: string) => {
    if (c === 'n') return '\n';
    if (c === '\\' || c === '"') return c;
    throw new ParseError(line, `invalid escape sequence '\\${c}'`);
  });
}

function unescapeHelp(raw: string, line: number): string {
  return raw.replace(/\\(.)/gs, (_m, c: string) => {
    if (c === 'n') return '\n';
    if (c === '\\') return c;
    throw new ParseError(line, `invalid escape sequence '\\${c}'`);
  });
}

function family(families: Map<string, Family>, name: string): Family {
  let f = families.get(name);
  if (!f) {
    f = { name, metrics: [], byLabels: new Map() };
    families.set(name, f);
  }
  return f;
}

function comment(families: Map<string, Family>, text: string, lineNo: number): void {
  const m = /^#\s*(HELP|TYPE)\s+([^\s]+)(?:[ \t]+(.*))?$/s.exec(text);
  if (!m) return; // any other comment is ignored
  const [, keyword, name = '', rest = ''] = m;
  const f = family(families, name);
  if (keyword === 'HELP') {
    if (f.help !== undefined) throw new ParseError(lineNo, `second HELP line for metric name "${name}"`);
    f.help = unescapeHelp(rest, lineNo);
    return;
  }
  const type = rest.trim().toLowerCase();
  if (f.type !== undefined || f.metrics.length > 0) {
    throw new ParseError(lineNo, `second TYPE line for metric name "${name}", or TYPE reported after samples`);
  }
  if (!TYPES.has(type)) throw new ParseError(lineNo, `unknown metric type "${type}"`);
  f.type = type as MetricType;
}

function parseLabels(line: string, start: number, lineNo: number): { labels: Label[]; end: number } {
  const labels: Label[] = [];
  let i = start;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    LABEL_NAME.lastIndex = i;
    const m = LABEL_NAME.exec(line);
    if (!m) throw new ParseError(lineNo, 'invalid label name');
    const name = m[0];
    i += name.length;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== '=') throw new ParseError(lineNo, `expected '=' after label name, found ${JSON.stringify(line[i] ?? '')}`);
    i++;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== '"') throw new ParseError(lineNo, `expected '"' at start of label value, found ${JSON.stringify(line[i] ?? '')}`);
    let j = i + 1;
    while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) throw new ParseError(lineNo, `unterminated value of label "${name}"`);
    if (labels.some(([n]) => n === name)) throw new ParseError(lineNo, `duplicate label names for metric`);
    labels.push([name, unescapeLabel(line.slice(i + 1, j), lineNo)]);
    i = j + 1;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new ParseError(lineNo, `unexpected end of label value ${JSON.stringify(line[i] ?? '')}`);
  }
}

/** The family a sample belongs to: `x_bucket`/`x_sum`/`x_count` join a declared histogram or summary `x`. */
function familyOf(families: Map<string, Family>, name: string): { f: Family; suffix: string } {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = families.get(name.slice(0, -suffix.length));
    if (base?.type === 'histogram' || (base?.type === 'summary' && suffix !== '_bucket')) return { f: base, suffix };
  }
  return { f: family(families, name), suffix: '' };
}

function sample(families: Map<string, Family>, line: string, lineNo: number): void {
  NAME.lastIndex = 0;
  const nm = NAME.exec(line);
  if (!nm) throw new ParseError(lineNo, 'invalid metric name');
  let i = nm[0].length;
  let labels: Label[] = [];
  if (line[i] === '{') ({ labels, end: i } = parseLabels(line, i + 1, lineNo));
  const fields = line
    .slice(i)
    .trim()
    .split(/[ \t]+/);
  if (line.slice(i).length > 0 && !/^[ \t]/.test(line.slice(i))) throw new ParseError(lineNo, 'invalid metric name');
  const [valueText = '', ts, extra] = fields;
  const value = parseGoFloat(valueText);
  if (value === undefined) throw new ParseError(lineNo, `expected float as value, got ${JSON.stringify(valueText)}`);
  if (ts !== undefined && !/^[+-]?\d+$/.test(ts)) throw new ParseError(lineNo, `expected integer as timestamp, got ${JSON.stringify(ts)}`);
  if (extra !== undefined) throw new ParseError(lineNo, `spurious string after timestamp: ${JSON.stringify(extra)}`);
  const timestamp = ts === undefined ? undefined : BigInt(ts).toString();
  const { f, suffix } = familyOf(families, nm[0]);
  const type = f.type ?? 'untyped';
  if (type !== 'histogram' && type !== 'summary') {
    f.metrics.push({ labels, value, timestamp, points: [], sum: 0, count: 0 });
    return;
  }
  const special = type === 'histogram' ? 'le' : 'quantile';
  const own = labels.filter(([n]) => n !== special || suffix === '_sum' || suffix === '_count');
  // One series whatever the order its lines name their labels in (expfmt groups by signature).
  const key = JSON.stringify([...own].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let m = f.byLabels.get(key);
  if (!m) {
    m = { labels: own, value: 0, points: [], sum: 0, count: 0 };
    f.byLabels.set(key, m);
    f.metrics.push(m);
  }
  if (timestamp !== undefined) m.timestamp = timestamp;
  if (suffix === '_sum') m.sum = value;
  else if (suffix === '_count') m.count = value;
  else {
    const bound = labels.find(([n]) => n === special)?.[1];
    const at = bound === undefined ? undefined : parseGoFloat(bound);
    if (at === undefined) throw new ParseError(lineNo, `expected float as value for '${special}' label`);
    m.points.push([at, value]);
  }
}

function parse(text: string): Family[] {
  const families = new Map<string, Family>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/^[ \t]+/, '');
    if (line === '') return;
    if (line.startsWith('#')) comment(families, line, i + 1);
    else sample(families, line, i + 1);
  });
  return [...families.values()].filter((f) => f.metrics.length > 0);
}

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeValue = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function sampleLine(name: string, labels: Label[], extra: [string, number] | undefined, value: number, timestamp?: string): string {
  const pairs = labels.map(([n, v]) => `${n}="${escapeValue(v)}"`);
  if (extra) pairs.push(`${extra[0]}="${goFloat(extra[1])}"`);
  const set = pairs.length ? `{${pairs.join(',')}}` : '';
  return `${name}${set} ${goFloat(value)}${timestamp === undefined ? '' : ` ${timestamp}`}\n`;
}

function familyText(f: Family): string {
  const type = f.type ?? 'untyped';
  let out = f.help === undefined ? '' : `# HELP ${f.name} ${escapeHelp(f.help)}\n`;
  out += `# TYPE ${f.name} ${type}\n`;
  for (const m of f.metrics) {
    if (type === 'histogram' || type === 'summary') {
      const special = type === 'histogram' ? 'le' : 'quantile';
      const pointName = type === 'histogram' ? `${f.name}_bucket` : f.name;
      for (const [at, v] of m.points) out += sampleLine(pointName, m.labels, [special, at], v, m.timestamp);
      if (type === 'histogram' && !m.points.some(([at]) => at === Infinity)) {
        out += sampleLine(pointName, m.labels, ['le', Infinity], m.count, m.timestamp);
      }
      out += sampleLine(`${f.name}_sum`, m.labels, undefined, m.sum, m.timestamp);
      out += sampleLine(`${f.name}_count`, m.labels, undefined, m.count, m.timestamp);
    } else {
      out += sampleLine(f.name, m.labels, undefined, m.value, m.timestamp);
    }
  }
  return out;
}

export function obfuscateMetrics(text: string): string {
  const families = parse(text);
  for (const f of families) {
    for (const m of f.metrics) m.labels = m.labels.map(([n, v]) => [n, SENSITIVE.has(n) ? hashed(v) : v]);
  }
  return families.map(familyText).join('');
}
