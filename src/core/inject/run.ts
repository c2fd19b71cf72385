import { isMap, type Document } from 'yaml';
import { cliCreatedBy } from '../version.js';
import { ManifestOutput } from '../manifest/output.js';
import { listManifestInputs, type ManifestInput, type SkippedEntry, type SourceReaders } from '../manifest/sources.js';
import { inputStreams, type ManifestStream } from '../manifest/stream.js';
import type { OutputFormat, StreamOutput } from '../manifest/write.js';
import { deprecationWarnings, type SetFlag } from '../values/flags.js';
import { clusterNamespaceAnnotations, resolveBaseValues, type BaseValuesOptions } from './baseValues.js';
import { injectStream, type InjectSettings } from './inject.js';
import { InjectPool, workerPlan, type WorkerPlan } from './injectPool.js';
import type { InjectWorkerData } from './injectWorkerMessages.js';
import { NAMESPACE_KIND, workloadKind } from './kinds.js';
import { objectNodes } from './objects.js';
import type { DocReport, ReportNote } from './report.js';
import { proxySettings } from './settings.js';
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

interface StreamRun {
  /** The document's new text; from a worker thread, its UTF-8 bytes (moved, not copied). */
  output?: StreamOutput | { format: StreamOutput['format']; bytes: Uint8Array };
  reports: DocReport[];
  notes: ReportNote[];
  errors: string[];
}

/** A document's run, done here or on a worker, waiting for those before it to be written. */
interface Entry {
  settled: boolean;
  run?: StreamRun;
  error?: { thrown: unknown };
  /** Resolves once settled (never rejects). */
  done: Promise<void>;
}

function settledEntry(work: () => StreamRun): Entry {
  const entry: Entry = { settled: true, done: Promise.resolve() };
  try {
    entry.run = work();
  } catch (e) {
    entry.error = { thrown: e };
  }
  return entry;
}

function pendingEntry(p: Promise<StreamRun>): Entry {
  const entry: Entry = { settled: false, done: Promise.resolve() };
  entry.done = p.then(
    (run) => {
      entry.run = run;
      entry.settled = true;
    },
    (e: unknown) => {
      entry.error = { thrown: e };
      entry.settled = true;
    },
  );
  return entry;
}

/** Entries waiting to be written, per worker and beyond: bounds the memory held by results. */
const MAX_WAITING = 256;

/** Hands a stream to a worker (a promise of its run), or says no (undefined) so it is run here. */
export type Offload = (stream: ManifestStream) => Promise<StreamRun> | undefined;

/**
 * Runs `each` over every document of every input, writing what it returns; the reports are
 * gathered per input, and the first input with errors makes the whole output void. With
 * `offload`, documents may be run on workers meanwhile: results are still taken in input order,
 * so the output, the reports and the first error thrown are those of a run without.
 */
async function transformInputs(
  inputs: readonly ManifestInput[],
  output: ManifestOutput,
  each: (stream: ManifestStream) => StreamRun,
  offload?: Offload,
): Promise<{ inputs: InputReport[]; errors?: string[] }> {
  const reports: InputReport[] = [];
  let errors: string[] | undefined;
  for (const input of inputs) {
    const report: InputReport = { name: input.name, reports: [], notes: [] };
    const inputErrors: string[] = [];
    output.beginInput('yaml');
    const apply = (r: StreamRun) => {
      report.reports.push(...r.reports);
      report.notes.push(...r.notes);
      inputErrors.push(...r.errors);
      if (r.output && errors === undefined && inputErrors.length === 0) {
        output.setFormat(r.output.format);
        output.write('bytes' in r.output ? r.output.bytes : r.output.text);
      }
    };
    const waiting: Entry[] = [];
    const flush = () => {
      for (let head = waiting[0]; head?.settled; head = waiting[0]) {
        waiting.shift();
        if (head.error) throw head.error.thrown;
        if (head.run) apply(head.run);
      }
    };
    const drain = async () => {
      for (let head = waiting[0]; head; head = waiting[0]) {
        await head.done;
        flush();
      }
    };
    const streams = inputStreams(input);
    try {
      for (;;) {
        let next: IteratorResult<ManifestStream>;
        try {
          next = await streams.next();
        } catch (e) {
          // A document read before the failure that failed itself is what a run without workers reports.
          await drain();
          throw e;
        }
        if (next.done === true) break;
        const stream = next.value;
        const job = offload?.(stream);
        if (job) waiting.push(pendingEntry(job));
        else if (waiting.length === 0) apply(each(stream));
        else {
          waiting.push(settledEntry(() => each(stream)));
          // Lets the workers' results in while this thread does documents of its own.
          await new Promise((resolve) => setImmediate(resolve));
        }
        flush();
        while (waiting.length > MAX_WAITING) {
          await waiting[0]?.done;
          flush();
        }
      }
    } finally {
      await streams.return(undefined);
    }
    await drain();
    if (inputErrors.length > 0) errors ??= inputErrors;
    reports.push(report);
  }
  return { inputs: reports, errors };
}

interface WorkerOffload {
  offload: Offload;
  /** Counts characters of YAML read elsewhere (--manual's first pass). */
  read: (chars: number) => void;
  /** The namespaces' annotations, once known (before the first document is offered). */
  setNamespaces: (namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>) => void;
  stop: () => Promise<void>;
}

/**
 * Injection on worker threads once `plan.after` characters of YAML were read, counting those
 * `--manual`'s first pass read, during which they may start (see injectPool.ts); `stop` ends
 * them, on every way out.
 */
function injectOffload(plan: WorkerPlan, data: InjectWorkerData): WorkerOffload {
  let read = 0;
  let pool: InjectPool | undefined;
  let started = plan.count < 1;
  let namespaces: ReadonlyMap<string, Readonly<Record<string, string>>> | undefined;
  const count = (chars: number) => {
    read += chars;
    if (started || read <= plan.after) return;
    started = true;
    pool = InjectPool.start(plan.count, data);
    if (namespaces) pool?.setNamespaces(namespaces);
  };
  return {
    offload: (stream) => {
      if (stream.segment !== true) return undefined;
      if (!started) count(stream.source.text.length);
      return pool?.offer(stream);
    },
    read: count,
    setNamespaces: (ns) => {
      namespaces = ns;
      pool?.setNamespaces(ns);
    },
    stop: async () => {
      await pool?.close();
    },
  };
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
    workers = injectOffload(plan, { settings: cloneable, format: req.output });
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
