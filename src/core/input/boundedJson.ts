import { DOCUMENT_TOO_LARGE, MAX_NESTING_DEPTH, collectionBudget, denseText } from './treeLimits.js';

/*
 * JSON.parse with the limits every tree read shares: nesting depth and the collection budget
 * (treeLimits.ts) are checked by one linear scan of the text before V8 builds anything, so a body
 * of `{}` under the byte limit is refused instead of costing twenty times its size in objects.
 * A deadline (performance.now() milliseconds) is checked during the scan.
 */

export class JsonLimitError extends Error {
  constructor(
    message: string,
    /** `deadline` when the deadline passed, `limit` when the text breaks a tree limit. */
    readonly why: 'deadline' | 'limit',
    /** Where in the text the scan stopped. */
    readonly offset = 0,
  ) {
    super(message);
    this.name = 'JsonLimitError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
/** Characters scanned between two looks at the clock. */
const CLOCK_EVERY = 1 << 20;

export interface BoundedJsonOptions {
  /** performance.now() time after which parsing stops. */
  deadline?: number;
  /**
   * Nodes one top-level value may hold (each collection and each comma between two values: never
   * more than JSON.parse builds), refused at the value's start before JSON.parse builds them.
   */
  maxNodes?: number;
}

/**
 * Throws JsonLimitError when `text` nests too deep, holds too many collections (or a top-level
 * value more than `maxNodes` nodes), or the deadline passes.
 */
export function checkJsonText(text: string, o: BoundedJsonOptions = {}): void {
  const budget = collectionBudget(text.length);
  const maxNodes = o.maxNodes ?? Infinity;
  let collections = 0;
  let nodes = 0;
  let valueStart = 0;
  let depth = 0;
  let inString = false;
  let nextClock = CLOCK_EVERY;
  for (let i = 0; i < text.length; i++) {
    if (i >= nextClock) {
      nextClock += CLOCK_EVERY;
      if (o.deadline !== undefined && performance.now() > o.deadline) throw new JsonLimitError('deadline passed while parsing', 'deadline', i);
    }
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === 0) valueStart = i;
      if (++collections > budget) throw new JsonLimitError(denseText(budget), 'limit', i);
      if (++depth > MAX_NESTING_DEPTH) throw new JsonLimitError(`nested more than ${MAX_NESTING_DEPTH} levels deep`, 'limit', i);
      if (++nodes > maxNodes) throw new JsonLimitError(DOCUMENT_TOO_LARGE, 'limit', valueStart);
    } else if (c === COMMA) {
      if (++nodes > maxNodes) throw new JsonLimitError(DOCUMENT_TOO_LARGE, 'limit', valueStart);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) nodes = 0;
    }
  }
}

/** JSON.parse after checkJsonText; syntax errors stay JSON.parse's SyntaxError. */
export function parseJsonBounded(text: string, o: BoundedJsonOptions = {}): unknown {
  checkJsonText(text, o);
  return JSON.parse(text) as unknown;
}
