import { createHash } from 'node:crypto';

/*
 * `proxy-metrics --obfuscate`: the values of the labels that name peers become the first four
 * bytes of their SHA-256 as hex, as the real command does; every other byte of the text stays.
 * Sample lines are tokenized (quoted values with escapes), so a malformed label set is an error.
 */

const SENSITIVE = new Set(['authority', 'client_id', 'server_id', 'target_addr', 'dst_service', 'dst_namespace']);

const hashed = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 8);

const NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;

function unescape(raw: string): string {
  return raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

/** One sample line with its sensitive label values replaced. */
function obfuscateLine(line: string, lineNo: number): string {
  const open = line.indexOf('{');
  const space = line.search(/\s/);
  if (open < 0 || (space >= 0 && space < open)) return line;
  let out = line.slice(0, open + 1);
  let i = open + 1;
  const fail = (why: string) => new Error(`text format parsing error in line ${lineNo}: ${why}`);
  for (;;) {
    while (line[i] === ' ') {
      out += ' ';
      i++;
    }
    if (line[i] === '}') break;
    NAME.lastIndex = i;
    const m = NAME.exec(line);
    if (!m) throw fail('invalid label name');
    const name = m[0];
    i += name.length;
    if (line[i] !== '=' || line[i + 1] !== '"') throw fail(`expected '="' after label name "${name}"`);
    let j = i + 2;
    while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) throw fail(`unterminated value of label "${name}"`);
    const raw = line.slice(i + 2, j);
    out += `${name}="${SENSITIVE.has(name) ? hashed(unescape(raw)) : raw}"`;
    i = j + 1;
    if (line[i] === ',') {
      out += ',';
      i++;
    } else if (line[i] !== '}') throw fail(`expected ',' or '}' after the value of label "${name}"`);
  }
  return out + line.slice(i);
}

export function obfuscateMetrics(text: string): string {
  return text
    .split('\n')
    .map((line, i) => (line.startsWith('#') || line.trim() === '' ? line : obfuscateLine(line, i + 1)))
    .join('\n');
}
