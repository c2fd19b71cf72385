import { MAX_YAML_DOCUMENT_NODES, YAML_DOCUMENT_TOO_LARGE, collectionBudget, denseText } from './treeLimits.js';

/*
 * The collection budget (treeLimits.ts) for a YAML text, counted by one pass over its characters
 * before any parser runs (the `yaml` Lexer would be exact but costs as much as a parse). The count
 * never falls short of what the parser builds: every `{` and `[` counts (quoted or not), a block
 * sequence at each `-` that is not an item of the one open at its column, a block map at each key
 * deeper than the open map's (the parser nests them by indentation), and every further `: ` on a
 * line or `":` (pairs inside a flow sequence are maps of their own). Only comment lines are
 * skipped. Text inside quoted and block scalars is counted as if it were structure, which real
 * manifests can afford:
 *
 * `kubectl get -o yaml` output with managedFields and last-applied-configuration (the `f:…: {}`
 * lines are the densest real YAML) counts one collection per 32 bytes (the parser builds one per
 * 48), block-style manifests one per 30 to 60 bytes, flow-style ones one per 9 (each pair of a flow
 * map counts); the budget is one per 16 bytes plus 100,000. Compact JSON held in a string counts
 * one per 9 bytes, so a document made of more than about 2 MB of it is refused.
 */

const NL = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const DASH = 0x2d;
const DOT = 0x2e;
const QUESTION = 0x3f;
const COLON = 0x3a;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;

type Kind = 'map' | 'seq';

/** A refusal of a YAML text, and the offset it is reported at (the start of the document at fault). */
export interface YamlTextProblem {
  readonly reason: string;
  readonly offset: number;
}

/** The collection-budget or document-size problem of a YAML text, or undefined. */
export function yamlTextProblem(text: string): YamlTextProblem | undefined {
  const { problem, documentStart } = countYamlCollections(text, collectionBudget(text.length));
  return problem === undefined ? undefined : { reason: problem, offset: problem === YAML_DOCUMENT_TOO_LARGE ? documentStart : 0 };
}

export interface YamlCount {
  collections: number;
  /** The most nodes (maps, lists, values) counted in one document of the text. */
  nodes: number;
  problem?: string;
  /** Where the document counted last starts. */
  documentStart: number;
}

/**
 * Collections counted in a YAML text, stopping at the first past `budget`; and, per document,
 * nodes (every collection, two per key, one per sequence item or flow comma: never fewer than
 * the parser builds), stopping at the first document past `maxNodes` (checked at the next item).
 */
export function countYamlCollections(text: string, budget = Infinity, maxNodes = MAX_YAML_DOCUMENT_NODES): YamlCount {
  const n = text.length;
  let collections = 0;
  let nodes = 0;
  let mostNodes = 0;
  let documentStart = 0;
  // Block collections open, innermost last: their columns and kinds.
  const cols: number[] = [];
  const kinds: Kind[] = [];
  const over = (): YamlCount => ({ collections, nodes: Math.max(mostNodes, nodes), documentStart, problem: denseText(budget) });
  const large = (): YamlCount => ({ collections, nodes, documentStart, problem: YAML_DOCUMENT_TOO_LARGE });
  /** A block collection of `kind` at `col`: true when it is a new one past the budget. */
  const block = (col: number, kind: Kind): boolean => {
    while (cols.length > 0 && (cols[cols.length - 1] as number) > col) {
      cols.pop();
      kinds.pop();
    }
    if (cols[cols.length - 1] === col) {
      if (kinds[kinds.length - 1] === kind) return false;
      // A sequence may sit at its parent key's column; a key at a sequence's column ends it.
      if (kind === 'map') {
        cols.pop();
        kinds.pop();
        if (cols[cols.length - 1] === col) return false;
      }
    }
    cols.push(col);
    kinds.push(kind);
    nodes++;
    return ++collections > budget;
  };
  const blankAt = (i: number) => {
    const c = i < n ? text.charCodeAt(i) : NL;
    return c === SPACE || c === TAB || c === NL || c === CR;
  };
  let i = 0;
  while (i < n) {
    const lineStart = i;
    while (i < n && text.charCodeAt(i) === SPACE) i++;
    let col = i - lineStart;
    const first = i < n ? text.charCodeAt(i) : NL;
    if (first === HASH || first === NL || first === CR) {
      i = text.indexOf('\n', i);
      i = i < 0 ? n : i + 1;
      continue;
    }
    // Document markers end every collection.
    if ((first === DASH || first === DOT) && col === 0 && text.charCodeAt(i + 1) === first && text.charCodeAt(i + 2) === first && blankAt(i + 3)) {
      cols.length = 0;
      kinds.length = 0;
      i += 3;
      if (nodes > mostNodes) mostNodes = nodes;
      nodes = 0;
      documentStart = lineStart;
    }
    // Indicators that open a collection in front of a line's key: `- `, `? ` (compact: `- - a: 1`).
    for (;;) {
      const c = text.charCodeAt(i);
      if ((c !== DASH && c !== QUESTION) || !blankAt(i + 1)) break;
      if (block(col, c === DASH ? 'seq' : 'map')) return over();
      if (++nodes > maxNodes) return large();
      i++;
      while (i < n && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
      col = i - lineStart;
    }
    let keyed = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === NL) break;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++collections > budget) return over();
        if (++nodes > maxNodes) return large();
      } else if (c === COMMA) {
        if (++nodes > maxNodes) return large();
      } else if (c === COLON) {
        const before = text.charCodeAt(i - 1);
        if (!blankAt(i + 1) && before !== QUOTE && before !== APOSTROPHE) continue;
        if ((nodes += 2) > maxNodes) return large();
        if (!keyed) {
          keyed = true;
          if (block(col, 'map')) return over();
        } else if (++collections > budget) return over();
      }
    }
    i++;
  }
  return { collections, nodes: Math.max(mostNodes, nodes), documentStart };
}
