import { UserError } from '../errors.js';
import { type Tree, getKey, hasKey, isMap, setKey } from './tree.js';

/*
 * Helm's `--set` syntax (strvals), reimplemented with its observable behaviour:
 *   a.b=c,d=e        nested keys, several pairs per argument
 *   a[0].b=x  a[1]=y list indices (missing elements become null)
 *   a={x,y}          a list value
 *   a\.b=c  x=1\,2   backslash escapes any character in keys and values
 * Typing: --set turns true/false/null (any case) into booleans/null and decimal integers without a
 * leading zero into numbers; --set-string keeps strings; --set-file reads each value as a file path.
 */

export type SetKind = 'set' | 'set-string' | 'set-file';
/** Reads a `--set-file` path; may throw (the message is surfaced to the user). */
export type ReadFile = (path: string) => string;

/** Helm refuses indices beyond this to avoid allocating huge lists. */
const MAX_INDEX = 65536;
/** Helm refuses keys nested deeper than this. */
const MAX_NESTED_NAME_LEVEL = 30;

class ParseError extends Error {}

class Scanner {
  private readonly runes: string[];
  private pos = 0;
  constructor(text: string) {
    this.runes = Array.from(text);
  }
  read(): string | undefined {
    return this.pos < this.runes.length ? this.runes[this.pos++] : undefined;
  }
  unread(): void {
    this.pos--;
  }
  /** Runes up to (not including) one of `stop`, with backslash escapes; `last` undefined means end of input. */
  until(stop: string): { text: string; last: string | undefined } {
    let text = '';
    for (;;) {
      const r = this.read();
      if (r === undefined) return { text, last: undefined };
      if (stop.includes(r)) return { text, last: r };
      if (r === '\\') {
        const next = this.read();
        if (next === undefined) return { text, last: undefined };
        text += next;
      } else {
        text += r;
      }
    }
  }
}

/** Helm's typedVal: what an unquoted `--set` value becomes. */
export function typedSetValue(text: string): unknown {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (text === '0') return 0;
  // Leading zeros (`0755`, `007`) stay strings, as do floats and anything non-decimal.
  if (/^[+-]?[1-9][0-9]*$/.test(text) || /^[+-][0-9]+$/.test(text)) {
    const n = Number(text);
    // Past 2^53 a JS number would silently change the value; keep the digits instead.
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n;
  }
  return text;
}

type Reader = (text: string) => unknown;

class Parser {
  constructor(
    private readonly sc: Scanner,
    private readonly reader: Reader,
  ) {}

  /** Parses all pairs into `data`. */
  parse(data: Tree): void {
    while (this.key(data, 0)) {
      /* one pair per iteration */
    }
  }

  /** Parses one `key…=value` into data; false at end of input. */
  private key(data: Tree, level: number): boolean {
    const { text: k, last } = this.sc.until('=[,.');
    switch (last) {
      case undefined:
        if (k === '') return false;
        throw new ParseError(`key ${JSON.stringify(k)} has no value`);
      case '[': {
        const index = this.index();
        const existing = getKey(data, k);
        if (existing !== undefined && !Array.isArray(existing)) {
          throw new ParseError(`unable to parse key: ${JSON.stringify(k)} is not a list`);
        }
        setNonEmpty(data, k, this.listItem(Array.isArray(existing) ? existing : [], index, level));
        return true;
      }
      case '=': {
        setNonEmpty(data, k, this.value());
        return true;
      }
      case ',':
        throw new ParseError(`key ${JSON.stringify(k)} has no value (cannot end with ,)`);
      case '.': {
        if (level + 1 > MAX_NESTED_NAME_LEVEL) {
          throw new ParseError(`value name nested level is greater than maximum supported nested level of ${MAX_NESTED_NAME_LEVEL}`);
        }
        const existing = getKey(data, k);
        if (existing !== undefined && !isMap(existing)) {
          throw new ParseError(`unable to parse key: ${JSON.stringify(k)} is not a map`);
        }
        const inner: Tree = isMap(existing) ? existing : {};
        const more = this.key(inner, level + 1);
        if (Object.keys(inner).length === 0) {
          if (more) throw new ParseError(`key map ${JSON.stringify(k)} has no value`);
          throw new ParseError(`key ${JSON.stringify(k)} has no value`);
        }
        setNonEmpty(data, k, inner);
        return true;
      }
      default:
        throw new ParseError(`parse error: unexpected token ${last}`);
    }
  }

  /** After `=`: a `{a,b}` list, or a scalar up to the next unescaped comma. */
  private value(): unknown {
    const first = this.sc.read();
    if (first === undefined) return '';
    if (first === '{') return this.list();
    this.sc.unread();
    return this.reader(this.sc.until(',').text);
  }

  private list(): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const { text, last } = this.sc.until(',}');
      if (last === undefined) throw new ParseError("list must terminate with '}'");
      out.push(this.reader(text));
      if (last === '}') {
        // Swallow the pair separator that may follow the list.
        const next = this.sc.read();
        if (next !== undefined && next !== ',') this.sc.unread();
        return out;
      }
    }
  }

  private index(): number {
    const { text, last } = this.sc.until(']');
    if (last === undefined) throw new ParseError('error parsing index: unexpected end of input');
    if (!/^[+-]?[0-9]+$/.test(text)) {
      throw new ParseError(`error parsing index: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
    }
    return Number(text);
  }

  /** After `name[i]`: `=value`, `.key…` or another `[j]`. Returns the updated list. */
  private listItem(list: unknown[], i: number, level: number): unknown[] {
    if (i < 0) throw new ParseError(`negative ${i} index not allowed`);
    const { text, last } = this.sc.until('[.=');
    if (text !== '') throw new ParseError(`unexpected data at end of array index: ${JSON.stringify(text)}`);
    switch (last) {
      case undefined:
        throw new ParseError('unexpected end of input after array index');
      case '=':
        return setIndex(list, i, this.value());
      case '[': {
        const j = this.index();
        const existing = i < list.length ? list[i] : undefined;
        if (existing !== undefined && existing !== null && !Array.isArray(existing)) {
          throw new ParseError(`unable to parse key: element ${i} is not a list`);
        }
        return setIndex(list, i, this.listItem(Array.isArray(existing) ? existing : [], j, level));
      }
      case '.': {
        const existing = i < list.length ? list[i] : undefined;
        const inner: Tree = isMap(existing) ? existing : {};
        this.key(inner, level);
        return setIndex(list, i, inner);
      }
      default:
        throw new ParseError(`parse error: unexpected token ${last}`);
    }
  }
}

function setNonEmpty(data: Tree, key: string, value: unknown): void {
  // Helm ignores pairs with an empty key (e.g. `=x`).
  if (key !== '') setKey(data, key, value);
}

function setIndex(list: unknown[], index: number, value: unknown): unknown[] {
  if (index > MAX_INDEX) {
    throw new ParseError(`index of ${index} is greater than maximum supported index of ${MAX_INDEX}`);
  }
  const out = list.slice();
  while (out.length <= index) out.push(null);
  out[index] = value;
  return out;
}

function readerFor(kind: SetKind, readFile: ReadFile): Reader {
  switch (kind) {
    case 'set':
      return typedSetValue;
    case 'set-string':
      return (text) => text;
    case 'set-file':
      return (path) => readFile(path);
  }
}

/**
 * Parses `--set`/`--set-string`/`--set-file` arguments, in order, into `into` (Helm's ParseInto:
 * indices address lists already present there, e.g. from `-f` files) and returns it.
 * Errors: UserError `failed parsing --<kind> data: <reason>`.
 */
export function parseSetArgs(
  kind: SetKind,
  args: readonly string[],
  readFile: ReadFile = () => {
    throw new UserError('--set-file is not supported here');
  },
  into: Tree = {},
): Tree {
  const reader = readerFor(kind, readFile);
  for (const arg of args) {
    try {
      new Parser(new Scanner(arg), reader).parse(into);
    } catch (e) {
      if (e instanceof ParseError) throw new UserError(`failed parsing --${kind} data: ${e.message}`);
      throw e;
    }
  }
  return into;
}

/** True when the overrides map sets `path` (used e.g. for `proxyInit.runAsRoot=true` checks). */
export function overridesHave(overrides: Tree, path: readonly string[]): boolean {
  let cur: unknown = overrides;
  for (const seg of path) {
    if (!isMap(cur) || !hasKey(cur, seg)) return false;
    cur = cur[seg];
  }
  return true;
}
