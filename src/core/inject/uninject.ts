import { isMap, type YAMLMap, type YAMLSeq } from 'yaml';
import { END_ENTITY_VOLUME, IDENTITY_TOKEN_VOLUME, PODINFO_VOLUME, XTABLES_LOCK_VOLUME } from '../../../templates/proxy/context.js';
import type { DocEditor } from '../manifest/editor.js';
import { keyOf } from '../manifest/editor.js';
import type { ManifestStream } from '../manifest/stream.js';
import { NAMESPACE_KIND, SERVICE_KIND, identityOf, podTemplateOf, workloadKind } from './kinds.js';
import { documentObjects } from './objects.js';
import type { DocReport } from './report.js';
import { renderStream, type OutputFormat, type StreamOutput } from '../manifest/write.js';
import {
  CONTROL_PLANE_COMPONENT_LABEL,
  DEBUG_CONTAINER_NAME,
  INJECT_ANNOTATION,
  INJECT_DISABLED,
  NETWORK_VALIDATOR_CONTAINER_NAME,
  PROXY_CONTAINER_NAME,
  PROXY_INIT_CONTAINER_NAME,
} from '../mesh/names.js';

/*
 * Removing what injection adds, as linkerd's pkg/inject/uninject.go does. Beyond the real CLI, the network validator, the debug
 * container and the podinfo volume are removed too: they are only ever added by injection, and
 * leaving them behind made re-injecting a CNI or debug-sidecar workload fail or duplicate them.
 */

export const MESH_INIT_CONTAINERS = new Set([PROXY_INIT_CONTAINER_NAME, PROXY_CONTAINER_NAME, NETWORK_VALIDATOR_CONTAINER_NAME]);
export const MESH_CONTAINERS = new Set([PROXY_CONTAINER_NAME, DEBUG_CONTAINER_NAME]);
export const MESH_VOLUMES = new Set([END_ENTITY_VOLUME, XTABLES_LOCK_VOLUME, IDENTITY_TOKEN_VOLUME, PODINFO_VOLUME]);

type Collection = YAMLMap | YAMLSeq;

/** What stripping changed, and the collections to remove if they end up empty. */
export interface Stripped {
  containers: number;
  annotations: number;
  labels: number;
  emptied: Array<{ coll: Collection; stop: YAMLMap }>;
}

function nameOf(ed: DocEditor, item: unknown): string | undefined {
  if (isMap(item)) return ed.getString(item, 'name');
  if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
    return (item as { name: string }).name;
  }
  return undefined;
}

/** Removes the named items of `spec[key]`; the sequence is made editable only when something goes. */
function removeNamed(ed: DocEditor, tmpl: YAMLMap, key: string, names: ReadonlySet<string>, out: Stripped): number {
  const spec = ed.getMap(tmpl, 'spec');
  const seq = spec && ed.getSeq(spec, key);
  const match = (item: unknown) => names.has(nameOf(ed, item) ?? '');
  if (!seq || !seq.items.some(match)) return 0;
  const editableSpec = ed.editMap(tmpl, 'spec');
  const editable = editableSpec && ed.editSeq(editableSpec, key);
  if (!editable) return 0;
  const n = ed.removeItems(editable, match);
  if (n > 0) out.emptied.push({ coll: editable, stop: tmpl });
  return n;
}

function linkerdKeys(map: YAMLMap | undefined, keep: (key: string) => boolean): string[] {
  return map ? map.items.map(keyOf).filter((k) => k.startsWith('linkerd.io') && !keep(k)) : [];
}

/**
 * Drops `linkerd.io*` annotations (except `linkerd.io/inject: disabled`) and `linkerd.io*` labels from
 * `owner.metadata`; `stop` is the object whose metadata it is (emptied maps are removed up to it).
 */
export function stripMetadata(ed: DocEditor, owner: YAMLMap, stop: YAMLMap, out: Stripped): void {
  const meta = ed.getMap(owner, 'metadata');
  if (!meta) return;
  const annotations = ed.getMap(meta, 'annotations');
  const disabled = (k: string) => k === INJECT_ANNOTATION && annotations !== undefined && ed.getString(annotations, k) === INJECT_DISABLED;
  const annKeys = linkerdKeys(annotations, disabled);
  const labelKeys = linkerdKeys(ed.getMap(meta, 'labels'), () => false);
  if (annKeys.length === 0 && labelKeys.length === 0) return;
  const editableMeta = ed.editMap(owner, 'metadata');
  if (!editableMeta) return;
  const remove = (key: string, keys: string[]): number => {
    const m = keys.length === 0 ? undefined : ed.editMap(editableMeta, key);
    if (!m) return 0;
    const n = keys.filter((k) => ed.deleteKey(m, k)).length;
    if (n > 0) out.emptied.push({ coll: m, stop });
    return n;
  };
  out.annotations += remove('annotations', annKeys);
  out.labels += remove('labels', labelKeys);
}

/** Removes the proxy, its init containers and volumes from an (editable) pod template, and linkerd metadata. */
export function stripPodTemplate(ed: DocEditor, tmpl: YAMLMap, out: Stripped): void {
  stripMetadata(ed, tmpl, tmpl, out);
  stripPodSpec(ed, tmpl, out);
}

/** Removes the proxy, its init containers and volumes from an (editable) pod template's spec. */
function stripPodSpec(ed: DocEditor, tmpl: YAMLMap, out: Stripped): void {
  out.containers += removeNamed(ed, tmpl, 'initContainers', MESH_INIT_CONTAINERS, out);
  out.containers += removeNamed(ed, tmpl, 'containers', MESH_CONTAINERS, out);
  removeNamed(ed, tmpl, 'volumes', MESH_VOLUMES, out);
}

export function emptyStripped(): Stripped {
  return { containers: 0, annotations: 0, labels: 0, emptied: [] };
}

/** Removes collections that stripping (and nothing after it) left empty, with the keys holding them. */
export function pruneStripped(ed: DocEditor, s: Stripped): void {
  for (const { coll, stop } of s.emptied) ed.pruneEmpty(coll, stop);
}

function labelsOf(ed: DocEditor, obj: YAMLMap | undefined): Record<string, string> {
  return obj ? ed.stringMap(ed.getMap(obj, 'metadata'), 'labels') : {};
}

export interface StrippedObject {
  kind: string;
  name: string;
  /** A control-plane component: its proxy is removed, its linkerd metadata kept (as linkerd does). */
  controlPlane: boolean;
  stripped: Stripped;
}

/**
 * Removes what injection added to one object (a document's root or a List item), without yet
 * removing the collections that became empty (inject adds to them again first).
 */
export function stripObject(ed: DocEditor, obj: YAMLMap): StrippedObject {
  const { kind, name } = identityOf(ed, obj);
  const stripped = emptyStripped();
  const out: StrippedObject = { kind, name, controlPlane: false, stripped };
  const wk = workloadKind(kind);
  if (wk) {
    const tmpl = podTemplateOf(ed, obj, wk);
    out.controlPlane = CONTROL_PLANE_COMPONENT_LABEL in labelsOf(ed, obj) || (tmpl !== undefined && CONTROL_PLANE_COMPONENT_LABEL in labelsOf(ed, tmpl));
    if (!out.controlPlane && wk.podTemplate.length > 0) stripMetadata(ed, obj, obj, stripped);
    const editable = tmpl && ed.editPath(obj, wk.podTemplate);
    if (editable && out.controlPlane) stripPodSpec(ed, editable, stripped);
    else if (editable) stripPodTemplate(ed, editable, stripped);
  } else if (kind === NAMESPACE_KIND || kind === SERVICE_KIND) {
    out.controlPlane = CONTROL_PLANE_COMPONENT_LABEL in labelsOf(ed, obj);
    if (!out.controlPlane) stripMetadata(ed, obj, obj, stripped);
  }
  return out;
}

/** `uninject` of one object: strip, drop what became empty, and report. */
export function uninjectObject(ed: DocEditor, obj: YAMLMap): DocReport {
  const s = stripObject(ed, obj);
  pruneStripped(ed, s.stripped);
  const removed = s.stripped.containers > 0 || s.stripped.annotations > 0;
  return { kind: s.kind, name: s.name, outcome: removed ? 'uninjected' : 'skipped' };
}

export interface UninjectResult {
  output: StreamOutput;
  reports: DocReport[];
}

export function uninjectStream(stream: ManifestStream, format: OutputFormat): UninjectResult {
  const reports: DocReport[] = [];
  const editors = stream.docs.map((d) => {
    if (!d.present) return undefined;
    const ed = d.edit();
    const objects = documentObjects(ed, d, stream.source);
    if (!objects) {
      reports.push({ kind: '', name: '', outcome: 'skipped' });
      return ed;
    }
    for (const obj of objects) reports.push(obj ? uninjectObject(ed, obj) : { kind: '', name: '', outcome: 'skipped' });
    return ed;
  });
  return { output: renderStream(stream, editors, format), reports };
}
