import { isNode, type Document } from 'yaml';
import { UserError } from '../errors.js';
import { checkYamlNode } from '../input/treeLimits.js';

/** 1-based line and column of an offset. */
export function linePosition(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

/** `FILE:LINE:COL: reason` — the one shape of an input error. */
export function positionError(source: string, line: number, col: number, reason: string): UserError {
  return new UserError(`${source}:${line}:${col}: ${reason}`);
}

const TO_JS = { maxAliasCount: -1 } as const;

interface Where {
  name: string;
  text: string;
  offset: number;
  /** Lines before `text` in the whole input, when `text` is one segment of a stream. */
  lineOffset?: number;
}

/** A tree-limit problem as `FILE:LINE:COL: reason`, at the node it is about. */
function limitError(where: Where, reason: string): UserError {
  const pos = linePosition(where.text, where.offset);
  return positionError(where.name, pos.line + (where.lineOffset ?? 0), pos.col, reason);
}

/**
 * A document (or one of its nodes) as plain data. Aliases are measured by what they expand to first
 * (see input/treeLimits.ts), so a "billion laughs" is an error at its position, not a crash; only
 * the part converted counts, so a bomb nobody reads does not stop the rest of the document.
 */
export function toPlain(doc: Document, where: Where, node?: unknown): unknown {
  const problem = checkYamlNode(doc, node ?? doc.contents);
  if (problem) throw limitError(where, problem.reason);
  return node !== undefined && isNode(node) ? node.toJS(doc, TO_JS) : doc.toJS(TO_JS);
}

/**
 * A document as plain data for comparing two states of it, without expanding aliases past the
 * limit: a document whose aliases expand too far is compared with its aliases unexpanded.
 */
export function comparable(doc: Document): unknown {
  if (checkYamlNode(doc) === undefined) return doc.toJS(TO_JS);
  return doc.contents && isNode(doc.contents) ? doc.contents.toJSON() : doc.contents;
}
