import { isAlias, isCollection, isPair, type Document } from 'yaml';

/*
 * The one alias-and-depth limit for every YAML (and JSON) tree linkerd-ts reads: values files, the
 * cluster's linkerd-config, kubeconfig files and manifests. Aliases are counted by what they expand
 * to, not by how often they are used: a Pod with a hundred `resources: *res` is a few hundred nodes,
 * a "billion laughs" is a billion. Trees are measured with a memo per shared node, so measuring a
 * bomb costs what its text costs, never its expansion.
 */

/** Nodes a tree may reach once its aliases are expanded (when aliases are what makes it that big). */
export const MAX_EXPANDED_NODES = 1_000_000;
/**
 * Distinct nodes (maps, lists, values) one document may hold. Dense flow text (`[{},{},…]`) makes
 * a node of every two bytes; past this it is refused before its measure outgrows a JS Map.
 */
export const MAX_DOCUMENT_NODES = 4_000_000;
/**
 * Maps, lists and values one YAML document may hold, counted from its text before the `yaml`
 * parser runs. That parser spends about 1.5 KB and 15 µs on each: a ConfigMap with a list of
 * 2,000,000 `1`s (4 MB of flow text) took 2.9 GB and 30 s to inject, and 256 MB of it would
 * exhaust node's heap. Real documents sit below: a Kubernetes object is at most about 1.5 MB; a
 * client-side `kind: List` from `kubectl get -o yaml` counts about 450 per object with
 * managedFields, so about 4,400 objects fit (their JSON form, read by JSON.parse, is held to
 * MAX_DOCUMENT_NODES instead).
 */
export const MAX_YAML_DOCUMENT_NODES = 2_000_000;
/** Levels of nesting (maps and lists inside each other), aliases expanded. */
export const MAX_NESTING_DEPTH = 256;

/**
 * Objects and lists a parsed text may hold: one per 16 bytes of text, plus 100,000. Real
 * Kubernetes JSON and YAML hold one per 30 to 50 bytes (managedFields' `{}` are the densest);
 * each costs V8 40 to 64 bytes, so the parsed tree stays within a few times the text's size.
 */
export const BYTES_PER_COLLECTION = 16;
export const MIN_COLLECTION_BUDGET = 100_000;

/** The collections a text of `length` characters may parse to. */
export function collectionBudget(length: number): number {
  return MIN_COLLECTION_BUDGET + Math.floor(length / BYTES_PER_COLLECTION);
}

/** The refusal of a YAML document with more nodes than the parser may build. */
export const YAML_DOCUMENT_TOO_LARGE = `more than ${MAX_YAML_DOCUMENT_NODES.toLocaleString('en-US')} maps, lists and values in one YAML document; refusing to parse it (give a large List as JSON, or as one document per object)`;

/** The refusal of a text denser than the collection budget. */
export function denseText(budget: number): string {
  return `more than ${budget.toLocaleString('en-US')} objects and lists for its size (one per ${BYTES_PER_COLLECTION} bytes, plus ${MIN_COLLECTION_BUDGET.toLocaleString('en-US')}); refusing to parse it`;
}

export type TreeProblem =
  { kind: 'size'; reason: string } | { kind: 'expansion'; reason: string } | { kind: 'depth'; reason: string } | { kind: 'recursive'; reason: string };

/** How a kind of tree is walked: the children of a node, or undefined for a leaf. */
type Children<N> = (node: N) => readonly N[] | undefined;

interface Measure {
  size: number;
  depth: number;
}

interface Frame<N> {
  node: N;
  children: readonly N[];
  next: number;
  size: number;
  depth: number;
}

const EXPANSION = `aliases expand it past ${MAX_EXPANDED_NODES.toLocaleString('en-US')} nodes (an alias bomb?); refusing to expand it`;
/** The refusal of a document with more than MAX_DOCUMENT_NODES nodes. */
export const DOCUMENT_TOO_LARGE = `more than ${MAX_DOCUMENT_NODES.toLocaleString('en-US')} nodes (maps, lists and values) in one document; refusing to read it`;
const DEPTH = `nested more than ${MAX_NESTING_DEPTH} levels deep`;
const RECURSIVE = 'an alias refers to a node that contains it (a recursive alias)';

/**
 * Measures a tree without expanding it: every node counted once per path that reaches it, shared
 * subtrees (aliases) measured once. Returns the first limit it breaks, or undefined.
 */
function measure<N extends object>(root: N, children: Children<N>, limits = { nodes: MAX_EXPANDED_NODES, depth: MAX_NESTING_DEPTH }): TreeProblem | undefined {
  const memo = new Map<N, Measure>();
  const onStack = new Set<N>();
  let unique = 0;
  const stack: Frame<N>[] = [];
  const open = (node: N, kids: readonly N[], parentDepth: number): TreeProblem | undefined => {
    if (parentDepth + 1 > limits.depth) return { kind: 'depth', reason: DEPTH };
    if (++unique > MAX_DOCUMENT_NODES) return { kind: 'size', reason: DOCUMENT_TOO_LARGE };
    stack.push({ node, children: kids, next: 0, size: 1, depth: 1 });
    onStack.add(node);
    return undefined;
  };
  const first = open(root, children(root) ?? [], 0);
  if (first) return first;
  for (;;) {
    const top = stack[stack.length - 1];
    if (top === undefined) return undefined;
    const child = top.children[top.next++];
    if (child !== undefined) {
      if (onStack.has(child)) return { kind: 'recursive', reason: RECURSIVE };
      const known = memo.get(child);
      const kids = known ? undefined : children(child);
      if (known) {
        top.size += known.size;
        top.depth = Math.max(top.depth, known.depth + 1);
        if (stack.length + known.depth > limits.depth) return { kind: 'depth', reason: DEPTH };
        if (top.size > limits.nodes && top.size > unique) return { kind: 'expansion', reason: EXPANSION };
      } else if (kids !== undefined) {
        const problem = open(child, kids, stack.length);
        if (problem) return problem;
      } else {
        if (++unique > MAX_DOCUMENT_NODES) return { kind: 'size', reason: DOCUMENT_TOO_LARGE };
        top.size++;
        top.depth = Math.max(top.depth, 2);
      }
      continue;
    }
    stack.pop();
    onStack.delete(top.node);
    memo.set(top.node, { size: top.size, depth: top.depth });
    const parent = stack[stack.length - 1];
    if (parent === undefined) return undefined;
    parent.size += top.size;
    parent.depth = Math.max(parent.depth, top.depth + 1);
    if (parent.size > limits.nodes && parent.size > unique) return { kind: 'expansion', reason: EXPANSION };
  }
}

/** Primitives stand in as one shared leaf, so the walker sees only objects. */
const LEAF = Object.freeze({});
const box = (x: unknown): object => (typeof x === 'object' && x !== null ? x : LEAF);
const plainChildren: Children<object> = (v) => (v === LEAF ? undefined : (Array.isArray(v) ? (v as unknown[]) : Object.values(v)).map(box));

/** Children of a yaml node: a map's keys and values (pairs add no level), a list's items, an alias's target. */
function yamlChildren(doc: Document, followAliases: boolean): Children<object> {
  const objects = (xs: readonly unknown[]): object[] => xs.filter((x): x is object => typeof x === 'object' && x !== null);
  return (n) => {
    if (isAlias(n)) {
      const target = followAliases ? n.resolve(doc) : undefined;
      return target ? [target] : undefined;
    }
    if (isPair(n)) return objects([n.key, n.value]);
    if (isCollection(n)) return objects(n.items.flatMap((i) => (isPair(i) ? [i.key, i.value] : [i])));
    return undefined;
  };
}

/** Checks plain data (what js-yaml or JSON.parse returned; aliases are shared objects there). */
export function checkPlainTree(value: unknown): TreeProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return measure(value, plainChildren);
}

/**
 * Checks a node of a yaml Document (the whole document by default), following aliases into what
 * they name. Merge keys (`<<: *base`) count as the map they copy.
 */
export function checkYamlNode(doc: Document, node: unknown = doc.contents): TreeProblem | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  return measure(node, yamlChildren(doc, true));
}

/** Checks a yaml Document's own nesting, not following aliases (their expansion is checked where it happens). */
export function checkYamlDepth(doc: Document): TreeProblem | undefined {
  const node = doc.contents;
  if (typeof node !== 'object' || node === null) return undefined;
  return measure(node, yamlChildren(doc, false));
}
