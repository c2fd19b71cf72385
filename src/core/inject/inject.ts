import { isMap, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Container, EnvVar, PodSpec, Volume } from 'kubernetes-types/core/v1.js';
import {
  TRUST_ANCHORS_REQUIRED,
  injectedPodMetadata,
  sidecarParts,
  sidecarPodKey,
  type ProxyPodContext,
  type SidecarParts,
} from '../../../templates/proxy/index.js';
import { UserError } from '../errors.js';
import { ManifestShapeError, type DocEditor } from '../manifest/editor.js';
import { sortKeysDeep } from '../manifest/emit.js';
import type { ManifestStream } from '../manifest/stream.js';
import { renderStream, type OutputFormat, type StreamOutput } from '../manifest/write.js';
import { canonicalQuantity } from '../parse/quantity.js';
import type { Values } from '../values/schema.js';
import { deepClone, deepFreeze } from '../values/tree.js';
import { DEBUG_SIDECAR_ANNOTATION, annotationRow, annotationValue, applyAnnotations, hasRecognisedAnnotations } from './annotations.js';
import { NAMESPACE_KIND, SERVICE_KIND, identityOf, podTemplateOf, workloadKind, type WorkloadKind } from './kinds.js';
import { documentObjects } from './objects.js';
import { resourceName, type DocReport, type ReportNote } from './report.js';
import { pruneStripped, stripObject } from './uninject.js';
import { readCstObject } from './cstPod.js';
import type { PodTarget } from './podTarget.js';
import { INJECT_ANNOTATION, INJECT_DISABLED, INJECT_ENABLED, INJECT_INGRESS, PROXY_CONTAINER_NAME, PROXY_INIT_CONTAINER_NAME } from '../mesh/names.js';

/*
 * inject for one stream: every object is first stripped of a previous injection (so re-injecting
 * replaces the proxy), then annotated (default) or given the full proxy spec (--manual), in place.
 */

export interface InjectSettings {
  manual: boolean;
  /** Values after the flags: what the proxy is rendered from. */
  values: Values;
  /** Override annotations from flags (key → value), in table order. */
  overrides: ReadonlyMap<string, string>;
  /** `--flag value` behind each override annotation, for messages. */
  overrideFlags: ReadonlyMap<string, string>;
  /** Pod annotations from --enable-debug-sidecar / --close-wait-timeout. */
  cliAnnotations: ReadonlyMap<string, string>;
  controlPlaneNamespace: string;
  /** `linkerd/cli <version>`. */
  createdBy: string;
  /** Namespace of objects without metadata.namespace (the kubeconfig context's, or `default`). */
  defaultNamespace: string;
  /** `config.linkerd.io/*` annotations of a namespace, read by --manual like the proxy injector does. */
  namespaceAnnotations?: (namespace: string) => Readonly<Record<string, string>> | undefined;
}

export interface InjectStreamResult {
  /** Undefined when any document failed: nothing of this input may be printed. */
  output?: StreamOutput;
  reports: DocReport[];
  notes: ReportNote[];
  errors: string[];
}

const OPAQUE_PORTS_ANNOTATION = 'config.linkerd.io/opaque-ports';

const SIDECAR_NAMES = new Set([PROXY_CONTAINER_NAME, 'istio-proxy', PROXY_INIT_CONTAINER_NAME, 'istio-init']);
const SIDECAR_IMAGES = ['cr.l5d.io/linkerd/proxy:', 'gcr.io/istio-release/proxyv2:', 'cr.l5d.io/linkerd/proxy-init:', 'gcr.io/istio-release/proxy_init:'];

function hasSidecar(spec: PodSpec): boolean {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the user's manifest is not validated against PodSpec
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])].some(
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the same
    (c) => SIDECAR_NAMES.has(c?.name) || SIDECAR_IMAGES.some((p) => typeof c?.image === 'string' && c.image.startsWith(p)),
  );
}

function usesUDP(spec: PodSpec): boolean {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the user's manifest is not validated against PodSpec
  return (spec.containers ?? []).some((c) => (c?.ports ?? []).some((p) => p?.protocol === 'UDP'));
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What in a pod spec is not the shape Kubernetes (and the proxy templates) rely on, if anything. */
function podSpecShapeProblem(spec: PodSpec): string | undefined {
  for (const key of ['containers', 'initContainers', 'volumes'] as const) {
    const list: unknown = spec[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) return `spec.${key} must be a list`;
    if (!list.every(isObject)) return `every item of spec.${key} must be a mapping`;
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the user's manifest is not validated against PodSpec
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    const ports: unknown = c.ports;
    if (ports !== undefined && ports !== null && (!Array.isArray(ports) || !ports.every(isObject)))
      return `the ports of container "${c.name}" must be a list of mappings`;
  }
  return undefined;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sets string entries of a map in key order (existing keys keep their place). */
function setAll(ed: DocEditor, map: YAMLMap, entries: ReadonlyMap<string, string>): void {
  for (const [key, value] of [...entries].sort(([a], [b]) => byKey(a, b))) ed.setString(map, key, value);
}

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

const canonicalAll = (m: Record<string, string> | undefined) => m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, canonicalQuantity(v)]));

/**
 * A container as linkerd's inject writes it: the pod is re-marshalled through the typed Kubernetes
 * object, so keys come out sorted, zero probe counters (`initialDelaySeconds: 0`) are omitted and
 * resource quantities are in canonical form (`0.5` → `500m`).
 */
function asMarshalled(c: Container): Container {
  const out: Container = { ...c };
  if (c.resources) {
    const { limits, requests, ...rest } = c.resources;
    out.resources = { ...rest, ...(limits && { limits: canonicalAll(limits) }), ...(requests && { requests: canonicalAll(requests) }) };
  }
  for (const probe of PROBES) {
    const p = out[probe];
    if (!p) continue;
    out[probe] = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== 0));
  }
  return sortKeysDeep(out);
}

/** The parts as they are written: containers re-marshalled (see asMarshalled), volumes with sorted keys. */
function marshalledParts(parts: SidecarParts): SidecarParts {
  const items = <T extends Container | Volume>(list: T[]): T[] => list.map((c) => ('image' in c ? (asMarshalled(c) as T) : sortKeysDeep(c)));
  return {
    initContainersPrepend: items(parts.initContainersPrepend),
    initContainersAppend: items(parts.initContainersAppend),
    containersPrepend: items(parts.containersPrepend),
    containersAppend: items(parts.containersAppend),
    volumes: items(parts.volumes),
  };
}

/**
 * Marshalled parts shared by the workloads whose proxy comes out the same: rendered once per
 * (values, control-plane namespace, debug sidecar). They are frozen copies, so nothing can change
 * one workload's proxy through another's; frozen items also let emit.ts reuse their rendered lines.
 * What the templates read of a pod is its inbound ports (sidecarPodKey), and those only go into one
 * env value: the parts are rendered once with a placeholder there, and each workload gets them with
 * its own ports in that one item (a new proxy container and env list around the shared frozen
 * rest). Parts where the placeholder does not turn up exactly once, as that env value, are rendered
 * per ports instead.
 */
const SHARED_PARTS = new WeakMap<Values, Map<string, SidecarParts | PortsTemplate>>();
const SHARED_PARTS_MAX = 256;

/** Inbound ports no pod can declare (containerPort is a number): where it lands in the parts is where the ports go. */
const PORTS_PLACEHOLDER = 'linkerd-ts-inbound-ports-placeholder';
const PLACEHOLDER_POD: PodSpec = { containers: [{ name: 'app', ports: [{ containerPort: PORTS_PLACEHOLDER as unknown as number }] }] };

const PART_LISTS = ['initContainersPrepend', 'initContainersAppend', 'containersPrepend', 'containersAppend', 'volumes'] as const;

/** Shared parts whose one env item (`list[index].env[envIndex]`) takes a workload's inbound ports. */
interface PortsTemplate {
  template: SidecarParts;
  list: (typeof PART_LISTS)[number];
  index: number;
  envIndex: number;
}

function isPortsTemplate(v: SidecarParts | PortsTemplate): v is PortsTemplate {
  return 'template' in v;
}

/** Where the placeholder is in the parts, if it is there exactly once and as a whole env value; else undefined. */
function portsTemplate(parts: SidecarParts): PortsTemplate | undefined {
  let found: PortsTemplate | undefined;
  let count = 0;
  const scan = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.includes(PORTS_PLACEHOLDER)) count++;
    } else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) scan(x);
  };
  scan(parts);
  if (count !== 1) return undefined;
  for (const list of PART_LISTS) {
    for (const [index, item] of (parts[list] as Array<Container | Volume>).entries()) {
      const env: unknown = 'image' in item ? item.env : undefined;
      if (!Array.isArray(env)) continue;
      const envIndex = env.findIndex((e: EnvVar) => e.value === PORTS_PLACEHOLDER);
      if (envIndex >= 0) found = { template: parts, list, index, envIndex };
    }
  }
  return found;
}

/** The template's parts with `ports` in place of the placeholder (only the items on the way to it are new). */
function withPorts(t: PortsTemplate, ports: string): SidecarParts {
  const container = t.template[t.list][t.index] as Container;
  const env = [...(container.env ?? [])];
  env[t.envIndex] = { ...(env[t.envIndex] as EnvVar), value: ports };
  const list = [...t.template[t.list]];
  list[t.index] = { ...container, env };
  return { ...t.template, [t.list]: list };
}

function renderedParts(values: Values, shared: boolean, ctx: ProxyPodContext, debugSidecar: boolean): SidecarParts {
  const podKey = shared ? sidecarPodKey(ctx) : undefined;
  if (podKey === undefined) return marshalledParts(sidecarParts(values, ctx, { debugSidecar }));
  let byKey = SHARED_PARTS.get(values);
  if (!byKey) SHARED_PARTS.set(values, (byKey = new Map<string, SidecarParts | PortsTemplate>()));
  const base = `${ctx.controlPlaneNamespace}\n${String(debugSidecar)}`;
  let template = byKey.get(base);
  if (!template) {
    const parts = deepFreeze(structuredClone(marshalledParts(sidecarParts(values, { ...ctx, podSpec: PLACEHOLDER_POD }, { debugSidecar }))));
    // Parts without a place for the ports are rendered per ports, under keys of their own.
    template = portsTemplate(parts) ?? parts;
    byKey.set(base, template);
  }
  if (isPortsTemplate(template)) return withPorts(template, podKey);
  const key = `${base}\n${podKey}`;
  let parts = byKey.get(key) as SidecarParts | undefined;
  if (!parts) {
    parts = deepFreeze(structuredClone(marshalledParts(sidecarParts(values, ctx, { debugSidecar }))));
    if (byKey.size >= SHARED_PARTS_MAX) byKey.clear();
    byKey.set(key, parts);
  }
  return parts;
}

function addSidecar(ed: DocEditor, spec: YAMLMap, parts: SidecarParts): void {
  const add = (key: string, start: Array<Container | Volume>, end: Array<Container | Volume>) => {
    if (start.length === 0 && end.length === 0) return;
    const seq: YAMLSeq = ed.ensureSeq(spec, key);
    ed.insertItems(seq, 'start', start);
    ed.insertItems(seq, 'end', end);
  };
  add('initContainers', parts.initContainersPrepend, parts.initContainersAppend);
  add('containers', parts.containersPrepend, parts.containersAppend);
  add('volumes', [], parts.volumes);
}

/** A workload's pod in a Document, edited through its DocEditor. */
class DocPod implements PodTarget {
  constructor(
    private readonly ed: DocEditor,
    private readonly obj: YAMLMap,
    private readonly tmpl: YAMLMap,
    private readonly specNode: YAMLMap,
  ) {}

  spec(): PodSpec {
    return (this.ed.plain(this.specNode) ?? {}) as PodSpec;
  }

  annotations(): Record<string, string> {
    return this.ed.stringMap(this.ed.getMap(this.tmpl, 'metadata'), 'annotations');
  }

  namespace(): string | undefined {
    const meta = this.ed.getMap(this.obj, 'metadata');
    return meta && this.ed.getString(meta, 'namespace');
  }

  setAnnotations(add: ReadonlyMap<string, string>): void {
    const ed = this.ed;
    setAll(ed, ed.ensureStringMap(ed.ensureMap(this.tmpl, 'metadata', 'spec'), 'annotations'), add);
  }

  setLabels(add: ReadonlyMap<string, string>): void {
    const ed = this.ed;
    setAll(ed, ed.ensureStringMap(ed.ensureMap(this.tmpl, 'metadata', 'spec'), 'labels'), add);
  }

  addSidecar(parts: SidecarParts): void {
    const spec = this.ed.editMap(this.tmpl, 'spec');
    if (spec) addSidecar(this.ed, spec, parts);
  }
}

/** One workload on its way through `inject --manual`: where it is in the document, and what is known of it. */
interface ManualWorkload {
  pod: PodTarget;
  /** The pod spec, as plain data. */
  spec: PodSpec;
  /** The pod template's annotations. */
  annotations: Record<string, string>;
  wk: WorkloadKind;
  report: DocReport;
  /** `kind/name`, as notes name it. */
  resource: string;
  /** Injected in ingress mode (flag, or the annotation before stripping). */
  ingress: boolean;
  /** Carried a linkerd-proxy already (its config annotations came from an earlier run's flags). */
  wasInjected: boolean;
}

class Injector {
  readonly reports: DocReport[] = [];
  readonly notes: ReportNote[] = [];
  readonly errors: string[] = [];

  constructor(private readonly s: InjectSettings) {}

  object(ed: DocEditor, obj: YAMLMap): void {
    const facts = preStripFacts(ed, obj);
    const stripped = stripObject(ed, obj);
    const { kind, name } = stripped;
    const report: DocReport = { kind, name, outcome: 'skipped' };
    this.reports.push(report);
    if (kind === '') return;
    const wk = workloadKind(kind);
    try {
      if (wk) {
        const tmpl = podTemplateOf(ed, obj, wk) && ed.editPath(obj, wk.podTemplate);
        const specNode = tmpl && ed.getMap(tmpl, 'spec');
        // A workload without a pod template cannot be injected; it passes through.
        if (tmpl && specNode) this.workload(new DocPod(ed, obj, tmpl, specNode), wk, report, stripped.controlPlane, facts);
      } else if (kind === NAMESPACE_KIND) this.namespace(ed, obj, report);
      else if (kind === SERVICE_KIND) this.service(ed, obj, report);
    } catch (e) {
      if (!(e instanceof ManifestShapeError)) throw e;
      this.errors.push(`failed to inject ${kind}/${name}: ${e.message}`);
      return;
    }
    pruneStripped(ed, stripped.stripped);
  }

  private namespace(ed: DocEditor, obj: YAMLMap, report: DocReport): void {
    const annotations = new Map<string, string>([[INJECT_ANNOTATION, INJECT_ENABLED]]);
    for (const [k, v] of this.s.overrides) annotations.set(k, v);
    setAll(ed, ed.ensureStringMap(ed.ensureMap(obj, 'metadata'), 'annotations'), annotations);
    report.outcome = 'annotated';
  }

  private service(ed: DocEditor, obj: YAMLMap, report: DocReport): void {
    const opaque = this.s.overrides.get(OPAQUE_PORTS_ANNOTATION);
    if (opaque === undefined) return;
    ed.setString(ed.ensureStringMap(ed.ensureMap(obj, 'metadata'), 'annotations'), OPAQUE_PORTS_ANNOTATION, opaque);
    report.outcome = 'annotated';
  }

  /** The fast path's object: a workload known to carry nothing of an earlier injection (see cstPod.ts). */
  cleanWorkload(pod: PodTarget, kind: string, name: string, wk: WorkloadKind): void {
    const report: DocReport = { kind, name, outcome: 'skipped' };
    this.reports.push(report);
    this.workload(pod, wk, report, false, { ingressBefore: false, wasInjected: false });
  }

  /** An object that is not a workload, in the fast path: nothing to do but report it. */
  passedThrough(kind: string, name: string): void {
    this.reports.push({ kind, name, outcome: 'skipped' });
  }

  private workload(pod: PodTarget, wk: WorkloadKind, report: DocReport, controlPlane: boolean, facts: PreStripFacts): void {
    // Checked before anything else about the pod, as linkerd does.
    if (controlPlane && !this.s.manual) {
      this.errors.push('--manual must be set when injecting control plane components');
      return;
    }
    const { kind, name } = report;
    const resource = resourceName(report);
    const spec = pod.spec();
    const shape = podSpecShapeProblem(spec);
    if (shape) {
      this.errors.push(`failed to inject ${kind}/${name}: ${shape}`);
      return;
    }
    const annotations = pod.annotations();
    // An ingress-mode workload (flag, or its annotation before stripping) stays one.
    const ingress = Boolean(this.s.values.proxy.isIngress) || facts.ingressBefore;

    report.hostNetwork = spec.hostNetwork === true;
    report.sidecar = hasSidecar(spec);
    report.udp = usesUDP(spec);
    report.injectDisabled = annotations[INJECT_ANNOTATION] === INJECT_DISABLED;
    const reasons: string[] = [];
    if (spec.automountServiceAccountToken === false && !this.s.values.identity.serviceAccountTokenProjection) {
      reasons.push('automountServiceAccountToken set to "false", with Values.identity.serviceAccountTokenProjection set to "false"');
    }
    if (report.hostNetwork) reasons.push('hostNetwork is enabled');
    if (report.sidecar) reasons.push('pod has a sidecar injected already');
    if (reasons.length > 0) {
      if (report.udp) reasons.push('UDP port(s) configured on pod spec');
      this.errors.push(`failed to inject ${kind}/${name}: ${reasons.join(', ')}`);
      return;
    }
    if (report.injectDisabled) {
      // Reported as annotatable when flags asked for overrides, but nothing is written (as linkerd).
      if (this.s.overrides.size > 0) report.outcome = 'annotated';
      return;
    }
    if (this.s.manual) {
      if (!this.manual({ pod, spec, annotations, wk, report, resource, ingress, wasInjected: facts.wasInjected })) return;
    } else {
      // The annotation the flag writes replaces the input's (what the injector will then see).
      this.conflicts(annotations, resource, true);
      const add = new Map(this.s.overrides);
      add.set(INJECT_ANNOTATION, ingress ? INJECT_INGRESS : INJECT_ENABLED);
      for (const [k, v] of this.s.cliAnnotations) add.set(k, v);
      pod.setAnnotations(add);
    }
    report.outcome = 'injected';
  }

  /**
   * Override annotations whose flag value differs from an annotation already on the input. Each
   * is named on stderr with both values, so nobody ships a value they did not mean.
   */
  private conflicts(
    annotations: Readonly<Record<string, string>>,
    resource: string,
    flagWinsAll: boolean,
  ): { flagWins: Set<string>; annotationWins: Set<string> } {
    const flagWins = new Set<string>();
    const annotationWins = new Set<string>();
    for (const [key, flagValue] of this.s.overrides) {
      if (key === INJECT_ANNOTATION) continue;
      const row = annotationRow(key);
      const found = row && annotationValue(row, annotations);
      if (!found || found.value === flagValue) continue;
      const flag = this.s.overrideFlags.get(key) ?? key;
      if (flagWinsAll) {
        flagWins.add(key);
        this.notes.push({ resource, message: `${flag} replaces annotation ${found.key}: ${found.value} on the input` });
      } else {
        annotationWins.add(key);
        this.notes.push({ resource, message: `annotation ${found.key}: ${found.value} on the input overrides ${flag}` });
      }
    }
    return { flagWins, annotationWins };
  }

  private manual(w: ManualWorkload): boolean {
    const { pod, spec, annotations, wk, report, resource, ingress, wasInjected } = w;
    const s = this.s;
    const namespace = pod.namespace() || s.defaultNamespace;
    const nsAnnotations = s.namespaceAnnotations?.(namespace) ?? {};
    const podAnnotations = { ...annotations, ...Object.fromEntries(s.cliAnnotations) };
    // Most workloads carry no proxy annotations: they share the values instead of copying them.
    const own = (ingress && !s.values.proxy.isIngress) || hasRecognisedAnnotations(nsAnnotations) || hasRecognisedAnnotations(podAnnotations);
    const values = own ? deepClone(s.values) : s.values;
    if (ingress) values.proxy.isIngress = true;

    // values < namespace annotations < workload annotations; a flag beats the namespace.
    const flagKeys = new Set(s.overrides.keys());
    for (const p of applyAnnotations(values, nsAnnotations, new Set([...flagKeys, INJECT_ANNOTATION]))) {
      this.notes.push({ resource: `namespace/${namespace}`, message: `ignoring annotation ${p.key}: ${JSON.stringify(p.value)} (${p.reason})` });
    }
    // On a fresh input the workload's own annotation wins, as in linkerd's --manual render; on a re-injection it was
    // written by the previous run's flags, and the new flags replace it.
    const { flagWins, annotationWins } = this.conflicts(annotations, resource, wasInjected);
    for (const p of applyAnnotations(values, podAnnotations, flagWins)) {
      this.notes.push({ resource, message: `ignoring annotation ${p.key}: ${JSON.stringify(p.value)} (${p.reason})` });
    }

    let parts: SidecarParts;
    try {
      parts = renderedParts(
        values,
        !own,
        { controlPlaneNamespace: s.controlPlaneNamespace, podSpec: spec },
        podAnnotations[DEBUG_SIDECAR_ANNOTATION] === 'true',
      );
    } catch (e) {
      if (e instanceof UserError && e.message !== TRUST_ANCHORS_REQUIRED) {
        this.errors.push(`failed to inject ${report.kind}/${report.name}: ${e.message}`);
        return false;
      }
      throw e;
    }
    const meta = injectedPodMetadata(values, {
      controlPlaneNamespace: s.controlPlaneNamespace,
      ownerKind: wk.ownerLabel ? report.kind : undefined,
      ownerName: report.name,
      workloadNamespace: namespace,
      createdBy: s.createdBy,
    });
    const add = new Map(Object.entries(meta.annotations));
    for (const [k, v] of s.overrides) if (!annotationWins.has(k)) add.set(k, v);
    if (ingress) add.set(INJECT_ANNOTATION, INJECT_INGRESS);
    for (const [k, v] of s.cliAnnotations) add.set(k, v);
    pod.setAnnotations(add);
    pod.setLabels(new Map(Object.entries(meta.labels)));
    pod.addSidecar(parts);
    return true;
  }
}

/** What stripping a previous injection erases but inject still needs to know. */
interface PreStripFacts {
  /** The pod template said `linkerd.io/inject: ingress`. */
  ingressBefore: boolean;
  /** The pod already had a linkerd-proxy: its config annotations came from an earlier run's flags. */
  wasInjected: boolean;
}

function preStripFacts(ed: DocEditor, obj: YAMLMap): PreStripFacts {
  const { kind } = identityOf(ed, obj);
  const wk = workloadKind(kind);
  const tmpl = wk && podTemplateOf(ed, obj, wk);
  if (!tmpl) return { ingressBefore: false, wasInjected: false };
  const annotations = ed.stringMap(ed.getMap(tmpl, 'metadata'), 'annotations');
  const spec = ed.getMap(tmpl, 'spec');
  const names = (key: string) => (spec ? (ed.getSeq(spec, key)?.items ?? []) : []).map((c) => (isMap(c) ? ed.getString(c, 'name') : undefined));
  return {
    ingressBefore: annotations[INJECT_ANNOTATION] === INJECT_INGRESS,
    wasInjected: [...names('containers'), ...names('initContainers')].includes(PROXY_CONTAINER_NAME),
  };
}

/**
 * The fast path: a document read from the CST and patched as text (cstPod.ts); undefined when the
 * Document path must take it.
 */
export function fastInjectStream(text: string, settings: InjectSettings): InjectStreamResult | undefined {
  const obj = readCstObject(text);
  // --opaque-ports annotates Services: the Document path writes that.
  if (!obj || (obj.kind === SERVICE_KIND && settings.overrides.has(OPAQUE_PORTS_ANNOTATION))) return undefined;
  const injector = new Injector(settings);
  if (obj.workload) injector.cleanWorkload(obj.workload.pod, obj.kind, obj.name, obj.workload.wk);
  else injector.passedThrough(obj.kind, obj.name);
  const { reports, notes, errors } = injector;
  if (errors.length > 0) return { reports, notes, errors };
  const out = obj.workload ? obj.workload.pod.render() : text;
  return out === undefined ? undefined : { output: { text: out, format: 'yaml' }, reports, notes, errors };
}

export function injectStream(stream: ManifestStream, settings: InjectSettings, format: OutputFormat): InjectStreamResult {
  if (stream.segment && format !== 'json') {
    const fast = fastInjectStream(stream.source.text, settings);
    if (fast) return fast;
  }
  const injector = new Injector(settings);
  const editors = stream.docs.map((d) => {
    if (!d.present) return undefined;
    const ed = d.edit();
    const objects = documentObjects(ed, d, stream.source);
    if (!objects) {
      injector.reports.push({ kind: '', name: '', outcome: 'skipped' });
      return ed;
    }
    for (const obj of objects) {
      if (obj) injector.object(ed, obj);
      else injector.reports.push({ kind: '', name: '', outcome: 'skipped' });
    }
    return ed;
  });
  const { reports, notes, errors } = injector;
  return { output: errors.length > 0 ? undefined : renderStream(stream, editors, format), reports, notes, errors };
}
