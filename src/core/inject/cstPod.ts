import type { PodSpec } from 'kubernetes-types/core/v1.js';
import type { SidecarParts } from '../../../templates/proxy/index.js';
import { CstReader, cstGet, cstMap, cstPlain, cstSeq, type CstMap, type CstNode, type CstSeq } from '../manifest/cst.js';
import { itemsText, pairText, type BlockStyle } from '../manifest/emit.js';
import { arrange } from '../manifest/patch/arrange.js';
import { TextLayout } from '../manifest/patch/layout.js';
import { applyPatches, type Patch } from '../manifest/patch/patch.js';
import { YAML_OPTIONS } from '../manifest/stream.js';
import { detectCstStyle } from '../manifest/style.js';
import { LIST_KIND, NAMESPACE_KIND, SERVICE_KIND, workloadKind, type WorkloadKind } from './kinds.js';
import type { PodTarget } from './podTarget.js';
import { MESH_CONTAINERS, MESH_INIT_CONTAINERS, MESH_VOLUMES } from './uninject.js';

/*
 * The fast path of inject for one document: read from the YAML library's CST (manifest/cst.ts)
 * instead of a composed Document, and written as the same text patches the Document path makes
 * (patch/mapAdditions.ts, patch/seqAdditions.ts) for the one kind of edit it covers: keys added
 * to the pod template's metadata, containers and volumes added to the pod spec. A document it
 * cannot handle with certainty gives undefined and goes through the Document path: anything
 * outside cst.ts's subset, List and Namespace objects, a Service with `linkerd.io*` metadata (or any
 * Service when --opaque-ports is set, see fastInjectStream), a previous injection to strip (any
 * `linkerd.io*` key on the object or pod template, a mesh container or volume), a workload whose
 * pod template, its metadata or spec is missing, and any edit landing in a flow collection, an
 * empty value, a replaced value or a line the patchers would refuse.
 */

let reader: CstReader | undefined;

/** Whatever a previous injection may have added (uninject removes these). */
const MESH_NAMES = new Set([...MESH_INIT_CONTAINERS, ...MESH_CONTAINERS, ...MESH_VOLUMES]);

/** A scalar as DocEditor.getString reads it. */
function str(node: CstNode | undefined): string | undefined {
  return node?.type === 'scalar' && node.value !== null ? String(node.value) : undefined;
}

/** A string map (labels, annotations) as DocEditor.stringMap reads it. */
function stringMap(meta: CstMap | undefined, key: string): Record<string, string> {
  const out: Record<string, string> = {};
  const m = cstMap(cstGet(meta, key));
  for (const p of m?.pairs ?? []) {
    const v = cstPlain(p.value);
    out[p.key] = typeof v === 'string' ? v : v === null ? '' : JSON.stringify(v);
  }
  return out;
}

const linkerdKeys = (meta: CstMap | undefined) =>
  ['labels', 'annotations'].some((key) => cstMap(cstGet(meta, key))?.pairs.some((p) => p.key.startsWith('linkerd.io')));

const meshItems = (spec: CstMap) =>
  ['initContainers', 'containers', 'volumes'].some((key) =>
    cstSeq(cstGet(spec, key))?.items.some((item) => item.type === 'map' && MESH_NAMES.has(str(cstGet(item, 'name')) ?? '')),
  );

export interface CstObject {
  /** Lower-cased, as the report prints it. */
  kind: string;
  name: string;
  workload?: { wk: WorkloadKind; pod: CstPod };
}

/** The one object of a document, or undefined when the Document path must read it. */
export function readCstObject(text: string): CstObject | undefined {
  reader ??= new CstReader(YAML_OPTIONS);
  const root = reader.read(text);
  if (!root) return undefined;
  const kind = (str(cstGet(root, 'kind')) ?? '').toLowerCase();
  const meta = cstMap(cstGet(root, 'metadata'));
  const name = (meta && (str(cstGet(meta, 'name')) || str(cstGet(meta, 'generateName')))) || '';
  if (kind === LIST_KIND || kind === NAMESPACE_KIND) return undefined;
  // A Service is only changed by --opaque-ports (the caller checks) or by stripping linkerd metadata.
  if (kind === SERVICE_KIND) return linkerdKeys(meta) ? undefined : { kind, name };
  const wk = workloadKind(kind);
  if (!wk) return { kind, name };
  let tmpl: CstMap | undefined = root;
  for (const key of wk.podTemplate) tmpl = cstMap(cstGet(tmpl, key));
  const spec = cstMap(cstGet(tmpl, 'spec'));
  if (!tmpl || !spec || linkerdKeys(meta) || linkerdKeys(cstMap(cstGet(tmpl, 'metadata'))) || meshItems(spec)) return undefined;
  return { kind, name, workload: { wk, pod: new CstPod(text, root, tmpl, spec) } };
}

class Unpatchable extends Error {}

const refuse = (): never => {
  throw new Unpatchable();
};

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A workload's pod read from the CST; its edits are recorded, then written by render(). */
export class CstPod implements PodTarget {
  private annotationsAdd?: ReadonlyMap<string, string>;
  private labelsAdd?: ReadonlyMap<string, string>;
  private parts?: SidecarParts;

  constructor(
    private readonly text: string,
    private readonly root: CstMap,
    private readonly tmpl: CstMap,
    private readonly specNode: CstMap,
  ) {}

  spec(): PodSpec {
    return cstPlain(this.specNode) as PodSpec;
  }

  annotations(): Record<string, string> {
    return stringMap(cstMap(cstGet(this.tmpl, 'metadata')), 'annotations');
  }

  namespace(): string | undefined {
    return str(cstGet(cstMap(cstGet(this.root, 'metadata')), 'namespace'));
  }

  setAnnotations(add: ReadonlyMap<string, string>): void {
    this.annotationsAdd = add;
  }

  setLabels(add: ReadonlyMap<string, string>): void {
    this.labelsAdd = add;
  }

  addSidecar(parts: SidecarParts): void {
    this.parts = parts;
  }

  /** The document with the recorded edits, or undefined when the Document path must write it. */
  render(): string | undefined {
    try {
      return this.patched();
    } catch (e) {
      if (e instanceof Unpatchable) return undefined;
      throw e;
    }
  }

  private patched(): string {
    const text = this.text;
    // In the order the Document path makes them: keys appended per mapping, items per sequence.
    const appends = new Map<CstMap, Array<[string, unknown]>>();
    const inserts = new Map<CstSeq, { start: readonly unknown[]; end: readonly unknown[] }>();
    const append = (map: CstMap, key: string, value: unknown) => {
      const list = appends.get(map) ?? [];
      list.push([key, value]);
      appends.set(map, list);
    };
    /** An existing block mapping to add to, or undefined when the key is missing. */
    const blockMap = (node: CstNode | undefined): CstMap | undefined => {
      if (node === undefined) return undefined;
      if (node.type !== 'map' || node.flow || node.pairs.length === 0) return refuse();
      return node;
    };
    const blockSeq = (node: CstNode | undefined): CstSeq | undefined => {
      if (node === undefined) return undefined;
      if (node.type !== 'seq' || node.flow || node.items.length === 0) return refuse();
      return node;
    };
    const setAll = (key: string, add: ReadonlyMap<string, string>) => {
      const meta = blockMap(cstGet(this.tmpl, 'metadata')) ?? refuse();
      const sorted = [...add].sort(([a], [b]) => byKey(a, b));
      const existing = blockMap(cstGet(meta, key));
      if (!existing) {
        append(meta, key, Object.fromEntries(sorted));
        return;
      }
      for (const [k, v] of sorted) {
        const found = cstGet(existing, k);
        if (found === undefined) append(existing, k, v);
        else if (found.type !== 'scalar' || found.value !== v) refuse();
      }
    };
    if (this.annotationsAdd) setAll('annotations', this.annotationsAdd);
    if (this.labelsAdd) setAll('labels', this.labelsAdd);
    const parts = this.parts;
    if (parts) {
      const spec = blockMap(this.specNode) ?? refuse();
      const add = (key: string, start: readonly unknown[], end: readonly unknown[]) => {
        if (start.length === 0 && end.length === 0) return;
        const seq = blockSeq(cstGet(spec, key));
        if (seq) inserts.set(seq, { start, end });
        else append(spec, key, [...start, ...end]);
      };
      add('initContainers', parts.initContainersPrepend, parts.initContainersAppend);
      add('containers', parts.containersPrepend, parts.containersAppend);
      add('volumes', [], parts.volumes);
    }
    if (appends.size === 0 && inserts.size === 0) return text;

    let style: BlockStyle | undefined;
    const styleOf = () => (style ??= detectCstStyle(text, this.root));
    const layout = new TextLayout(text, '\n', 0);
    let n = 0;
    const patches: Patch[] = [];
    for (const [map, added] of appends) {
      const first = map.pairs[0];
      const last = map.pairs[map.pairs.length - 1];
      if (!first || !last) return refuse();
      const k = first.keyStart;
      if (!layout.firstOnLine(k) && !layout.isItemStart(k)) refuse();
      const at = layout.endOfLine(last.value.range[1]);
      const col = layout.column(k);
      // Each text is whole lines joined with `\n`, the only line break this path reads.
      const texts = added.map(([key, value]) => pairText(key, value, col, styleOf()));
      patches.push({ start: at, end: at, text: layout.insertion(at, texts), order: n++, col });
    }
    for (const [seq, ins] of inserts) {
      const first = seq.items[0]?.range;
      const last = seq.items[seq.items.length - 1]?.range;
      if (!first || !last) return refuse();
      const dash = layout.dash(first[0]);
      if (dash < 0 || !layout.firstOnLine(dash)) refuse();
      const sameLine = text.lastIndexOf('\n', first[0]) < dash;
      const itemStyle = { ...styleOf(), itemPad: seq.items[0]?.type === 'map' && sameLine ? first[0] - dash : styleOf().itemPad };
      const col = layout.column(dash);
      if (ins.start.length > 0) {
        const at = layout.prependPoint(dash, col);
        patches.push({ start: at, end: at, text: layout.insertion(at, [itemsText(ins.start, col, itemStyle)]), order: n++, col });
      }
      if (ins.end.length > 0) {
        const at = layout.endOfLine(last[1]);
        patches.push({ start: at, end: at, text: layout.insertion(at, [itemsText(ins.end, col, itemStyle)]), order: n++, col: col + 0.5 });
      }
    }
    const arranged = arrange(patches);
    if (!Array.isArray(arranged)) return refuse();
    return applyPatches(text, arranged);
  }
}
