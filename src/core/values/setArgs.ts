import { UserError } from '../errors.js';
import { type Tree, getKey, hasKey, isMap, setKey } from './tree.js';

/*
 * Helm's `--set` syntax (strvals), reimplemented with its observable behaviour:
 *   a.b=c,d=e        nested keys, several pairs per argument
 *   a[0].b=x  a[1]=y list indices (missing elements become null)
 *   a={x,y}          a list value
 *   a\.b=c  x=1\,2   backslash escapes any character in keys and values
 * The parse is a loop over the path, never a recursion, so no argument can overflow the stack.
 * Typing: --set turns true/false/null (any case) into booleans/null and decimal integers without a
 * leading zero into numbers; --set-string keeps strings; --set-file reads each value as a file path.
 */

export type SetKind = 'set' | 'set-string' | 'set-file';
/** Reads a `--set-file` path; may throw (the message is surfaced to the user). */
export type ReadFile = (path: string) => string;

/** Helm refuses indices beyond this to avoid allocating huge lists. */
const MAX_INDEX = 65536;
/**
 * Helm refuses keys nested deeper than this; here each list index counts as a level too (Helm
 * counts only dots), so `a[0][0]…` is bounded like `a.a.…`.
 */
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

/** Where the parse of one pair is: reading a key into a map, or what follows `name[i]` in a list. */
type Step = { kind: 'key'; data: Tree; level: number } | { kind: 'item'; list: unknown[]; index: number; level: number };

/**
 * What is left to do once the inner part of a path is parsed, innermost last: the recursion of
 * Helm's parser as data, so a path as deep as the argument allows cannot overflow the stack.
 */
type Pending =
  /** `k.…`: store the inner map under k (it must have gained a key). */
  | { kind: 'map'; data: Tree; key: string; inner: Tree }
  /** `k[i]…`: store the updated list under k. */
  | { kind: 'list'; data: Tree; key: string }
  /** `[i][j]…`: store the updated inner list at i. */
  | { kind: 'listInList'; list: unknown[]; index: number }
  /** `[i].…`: store the inner map at i. */
  | { kind: 'mapInList'; list: unknown[]; index: number; inner: Tree };

/** What a finished step hands to the one that started it: a key step whether a pair was read, an item step its list. */
type Result = { kind: 'read'; more: boolean } | { kind: 'list'; list: unknown[] };

function nestedTooDeep(what: string): ParseError {
  return new ParseError(`${what} nested level is greater than maximum supported nested level of ${MAX_NESTED_NAME_LEVEL}`);
}

class Parser {
  constructor(
    private readonly sc: Scanner,
    private readonly reader: Reader,
  ) {}

  /** Parses all pairs into `data`. */
  parse(data: Tree): void {
    while (this.pair(data)) {
      /* one pair per iteration */
    }
  }

  /** Parses one `key…=value` into data; false at end of input. */
  private pair(data: Tree): boolean {
    const pending: Pending[] = [];
    let step: Step | undefined = { kind: 'key', data, level: 0 };
    let result: Result = { kind: 'read', more: false };
    while (step !== undefined) {
      const next: Step | Result = step.kind === 'key' ? this.key(step, pending) : this.listItem(step, pending);
      if (next.kind === 'key' || next.kind === 'item') step = next;
      else {
        result = next;
        step = undefined;
      }
    }
    for (let p = pending.pop(); p !== undefined; p = pending.pop()) result = finish(p, result);
    if (result.kind !== 'read') throw new Error('set parser: a path ended on a list');
    return result.more;
  }

  /** One key of a path: the pair ends here (`=`), or the path goes on into a map or a list. */
  private key(step: Extract<Step, { kind: 'key' }>, pending: Pending[]): Step | Result {
    const { data, level } = step;
    const { text: k, last } = this.sc.until('=[,.');
    switch (last) {
      case undefined:
        if (k === '') return { kind: 'read', more: false };
        throw new ParseError(`key ${JSON.stringify(k)} has no value`);
      case '[': {
        if (level + 1 > MAX_NESTED_NAME_LEVEL) throw nestedTooDeep('list index');
        const index = this.index();
        const existing = getKey(data, k);
        if (existing !== undefined && !Array.isArray(existing)) {
          throw new ParseError(`unable to parse key: ${JSON.stringify(k)} is not a list`);
        }
        pending.push({ kind: 'list', data, key: k });
        return { kind: 'item', list: Array.isArray(existing) ? existing : [], index, level: level + 1 };
      }
      case '=': {
        setNonEmpty(data, k, this.value());
        return { kind: 'read', more: true };
      }
      case ',':
        throw new ParseError(`key ${JSON.stringify(k)} has no value (cannot end with ,)`);
      case '.': {
        if (level + 1 > MAX_NESTED_NAME_LEVEL) throw nestedTooDeep('value name');
        const existing = getKey(data, k);
        if (existing !== undefined && !isMap(existing)) {
          throw new ParseError(`unable to parse key: ${JSON.stringify(k)} is not a map`);
        }
        const inner: Tree = isMap(existing) ? existing : {};
        pending.push({ kind: 'map', data, key: k, inner });
        return { kind: 'key', data: inner, level: level + 1 };
      }
      default:
        throw new ParseError(`parse error: unexpected token ${last}`);
    }
  }

  /** After `name[i]`: `=value`, `.key…` or another `[j]`. */
  private listItem(step: Extract<Step, { kind: 'item' }>, pending: Pending[]): Step | Result {
    const { list, index: i, level } = step;
    if (i < 0) throw new ParseError(`negative ${i} index not allowed`);
    const { text, last } = this.sc.until('[.=');
    if (text !== '') throw new ParseError(`unexpected data at end of array index: ${JSON.stringify(text)}`);
    switch (last) {
      case undefined:
        throw new ParseError('unexpected end of input after array index');
      case '=':
        return { kind: 'list', list: setIndex(list, i, this.value()) };
      case '[': {
        if (level + 1 > MAX_NESTED_NAME_LEVEL) throw nestedTooDeep('list index');
        const j = this.index();
        const existing = i < list.length ? list[i] : undefined;
        if (existing !== undefined && existing !== null && !Array.isArray(existing)) {
          throw new ParseError(`unable to parse key: element ${i} is not a list`);
        }
        pending.push({ kind: 'listInList', list, index: i });
        return { kind: 'item', list: Array.isArray(existing) ? existing : [], index: j, level: level + 1 };
      }
      case '.': {
        const existing = i < list.length ? list[i] : undefined;
        const inner: Tree = isMap(existing) ? existing : {};
        pending.push({ kind: 'mapInList', list, index: i, inner });
        // The dot after an index separates; the index already counted as a level (Helm counts neither).
        return { kind: 'key', data: inner, level };
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
}

/** Completes one pending store with what the inner part of the path produced. */
function finish(p: Pending, inner: Result): Result {
  switch (p.kind) {
    case 'map':
      if (Object.keys(p.inner).length === 0) {
        if (inner.kind === 'read' && inner.more) throw new ParseError(`key map ${JSON.stringify(p.key)} has no value`);
        throw new ParseError(`key ${JSON.stringify(p.key)} has no value`);
      }
      setNonEmpty(p.data, p.key, p.inner);
      return { kind: 'read', more: true };
    case 'list':
      setNonEmpty(p.data, p.key, listOf(inner));
      return { kind: 'read', more: true };
    case 'listInList':
      return { kind: 'list', list: setIndex(p.list, p.index, listOf(inner)) };
    case 'mapInList':
      return { kind: 'list', list: setIndex(p.list, p.index, p.inner) };
  }
}

function listOf(r: Result): unknown[] {
  if (r.kind !== 'list') throw new Error('set parser: an index ended without a list');
  return r.list;
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
