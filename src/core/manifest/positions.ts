import { UserError } from '../errors.js';

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

/** Aliases expanded per document before we call it an alias bomb (the yaml library's default). */
export const MAX_ALIAS_EXPANSIONS = 100;

const TO_JS = { maxAliasCount: MAX_ALIAS_EXPANSIONS } as const;

/**
 * A document (or one of its nodes) as plain data. Aliases are expanded with a bound, so a
 * "billion laughs" document is an error at its position instead of exhausting memory.
 */
export function toPlain(
  doc: { toJS(o: typeof TO_JS): unknown },
  where: { name: string; text: string; offset: number; lineOffset?: number },
  node?: { toJS(doc: never, o: typeof TO_JS): unknown },
): unknown {
  try {
    return node ? node.toJS(doc as never, TO_JS) : doc.toJS(TO_JS);
  } catch (e) {
    if (e instanceof Error && /Excessive alias count/.test(e.message)) {
      const pos = linePosition(where.text, where.offset);
      throw positionError(where.name, pos.line + (where.lineOffset ?? 0), pos.col, `more than ${MAX_ALIAS_EXPANSIONS} alias expansions in this document; refusing to expand it (an alias bomb?)`);
    }
    throw e;
  }
}
