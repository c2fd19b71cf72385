import { isMap, type Document } from 'yaml';
import { cliCreatedBy } from '../version.js';
import { ManifestOutput } from '../manifest/output.js';
import { listManifestInputs, type ManifestInput, type SkippedEntry, type SourceReaders } from '../manifest/sources.js';
import { inputStreams, type ManifestStream } from '../manifest/stream.js';
import type { OutputFormat } from '../manifest/write.js';
import { deprecationWarnings, type SetFlag } from '../values/flags.js';
import { clusterNamespaceAnnotations, resolveBaseValues, type BaseValuesOptions } from './baseValues.js';
import { injectStream, type InjectSettings } from './inject.js';
import { workerOffload, workerPlan, type WorkerOffload } from './injectPool.js';
import { NAMESPACE_KIND, workloadKind } from './kinds.js';
import { objectNodes } from '../manifest/objectNodes.js';
import type { DocReport, ReportNote } from './report.js';
import { proxySettings } from './settings.js';
import { transformInputs } from './transform.js';
import { uninjectStream } from './uninject.js';

/*
 * The whole of `linkerd inject` / `uninject` below the command line: list the inputs, work out the
 * values, then read, transform and write each input one document at a time. Nothing is printed
 * here: the result says what to print (src/cli/output/inject.ts writes it). A failed input means
 * no manifest at all and linkerd's `Error transforming resources:` text.
 */

export interface InputReport {
  /** The input's name (path, URL or `<stdin>`). */
  name: string;
  reports: DocReport[];
  notes: ReportNote[];
}

export interface InjectResult {
  /** Deprecated flags, in linkerd's words (printed as they are). */
  deprecations: string[];
  /** Where the values came from, when that needs saying (printed as warnings). */
  notes: string[];
  /** Directory entries not read, and why. */
  skipped: SkippedEntry[];
  /** One report per input, in order. */
  inputs: InputReport[];
  /** Transform errors of the first input that had any: then nothing is printed on stdout. */
  errors?: string[];
  /** The manifest for stdout (call dispose() once written). */
  output: ManifestOutput;
}

export interface UninjectResult {
  skipped: SkippedEntry[];
  inputs: InputReport[];
  output: ManifestOutput;
}

export interface InjectRequest {
  inputs: readonly string[];
  manual: boolean;
  output: OutputFormat;
  /** Proxy/inject flags the user set (readSetFlags of groups C and D). */
  flags: readonly SetFlag[];
  debugSidecar: boolean;
  closeWaitTimeout?: string;
  base: BaseValuesOptions;
  readers?: SourceReaders;
  createdBy?: string;
}

type Root = { doc: Document; obj: Record<string, unknown> };

function roots(stream: ManifestStream): Root[] {
  const out: Root[] = [];
  for (const d of stream.docs) {
    if (!isMap(d.doc.contents)) continue;
    for (const n of objectNodes(d.doc.contents)) if (isMap(n)) out.push({ doc: d.doc, obj: { kind: n.get('kind'), metadata: n.get('metadata') } });
  }
  return out;
}

function metaField(obj: Record<string, unknown>, key: string): unknown {
  const meta = obj.metadata;
  return isMap(meta) ? meta.get(key) : undefined;
}

interface NamespaceFacts {
  /** Annotations of Namespace objects in the input, which --manual honours like the cluster's. */
  annotations: Map<string, Record<string, string>>;
  /** Namespaces of the input's workloads (only gathered when a cluster is there to ask). */
  workloadNamespaces: Set<string>;
}

/** Only a document with `kind: Namespace` or `kind: List` in it (any quoting, any case) can hold a Namespace object. */
const MAY_HOLD_NAMESPACE = /\bkind["']?\s*:\s*["']?(?:namespace|list)\b/i;

/**
 * A first pass over the inputs for what --manual needs before the first workload: the input's own
 * Namespace annotations and, with a cluster, the namespaces to read. Documents that cannot matter
 * are not parsed.
 */
async function namespaceFacts(
  inputs: readonly ManifestInput[],
  fallback: string,
  withWorkloads: boolean,
  onRead: (chars: number) => void,
): Promise<NamespaceFacts> {
  const facts: NamespaceFacts = { annotations: new Map(), workloadNamespaces: new Set() };
  const wanted = withWorkloads ? undefined : (text: string) => MAY_HOLD_NAMESPACE.test(text);
  for (const input of inputs) {
    for await (const stream of inputStreams(input, wanted)) {
      if (stream.format === 'yaml') onRead(stream.source.text.length);
      for (const { obj } of roots(stream)) {
        const kind = typeof obj.kind === 'string' ? obj.kind.toLowerCase() : '';
        if (kind === NAMESPACE_KIND) {
          const ann = metaField(obj, 'annotations');
          const name = metaField(obj, 'name');
          if (typeof name === 'string' && isMap(ann)) facts.annotations.set(name, ann.toJSON() as Record<string, string>);
        } else if (withWorkloads && workloadKind(kind)) {
          const ns = metaField(obj, 'namespace');
          facts.workloadNamespaces.add(typeof ns === 'string' && ns !== '' ? ns : fallback);
        }
      }
    }
  }
  return facts;
}

export async function runInject(req: InjectRequest): Promise<InjectResult> {
  const { inputs, skipped } = await listManifestInputs(req.inputs, req.readers);
  const base = await resolveBaseValues(req.base);
  const output = new ManifestOutput();
  let workers: WorkerOffload | undefined;
  try {
    const plan = workerPlan();
    const settings = proxySettings({ base: base.values, flags: req.flags, debugSidecar: req.debugSidecar, closeWaitTimeout: req.closeWaitTimeout });
    const defaultNamespace = base.client?.namespace ?? 'default';
    const cloneable: Omit<InjectSettings, 'namespaceAnnotations'> = {
      manual: req.manual,
      ...settings,
      controlPlaneNamespace: req.base.controlPlaneNamespace,
      createdBy: req.createdBy ?? cliCreatedBy(),
      defaultNamespace,
    };
    workers = workerOffload(plan, { settings: cloneable, format: req.output });
    let nsAnnotations = new Map<string, Record<string, string>>();
    if (req.manual) {
      const facts = await namespaceFacts(inputs, defaultNamespace, base.client !== undefined, workers.read);
      if (base.client) nsAnnotations = await clusterNamespaceAnnotations(base.client, facts.workloadNamespaces);
      for (const [k, v] of facts.annotations) nsAnnotations.set(k, v);
    }
    workers.setNamespaces(nsAnnotations);
    const injectSettings: InjectSettings = { ...cloneable, namespaceAnnotations: (ns) => nsAnnotations.get(ns) };
    const run = await transformInputs(inputs, output, (stream) => injectStream(stream, injectSettings, req.output), workers.offload);
    return { deprecations: deprecationWarnings(req.flags), notes: base.notes, skipped, ...run, output };
  } catch (e) {
    output.dispose();
    throw e;
  } finally {
    await workers?.stop();
    base.client?.close();
  }
}

export interface UninjectRequest {
  inputs: readonly string[];
  output: OutputFormat;
  readers?: SourceReaders;
}

export async function runUninject(req: UninjectRequest): Promise<UninjectResult> {
  const { inputs, skipped } = await listManifestInputs(req.inputs, req.readers);
  const output = new ManifestOutput();
  try {
    const run = await transformInputs(inputs, output, (stream) => ({ ...uninjectStream(stream, req.output), notes: [], errors: [] }));
    return { skipped, inputs: run.inputs, output };
  } catch (e) {
    output.dispose();
    throw e;
  }
}
