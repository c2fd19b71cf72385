import { isMap, type Document } from 'yaml';
import { cliCreatedBy } from '../version.js';
import { readManifestSources, type SourceReaders } from '../manifest/sources.js';
import { parseManifestStream, type ManifestStream } from '../manifest/stream.js';
import { joinOutputs, type OutputFormat, type StreamOutput } from '../manifest/write.js';
import { deprecationWarnings, type SetFlag } from '../values/flags.js';
import { clusterNamespaceAnnotations, resolveBaseValues, type BaseValuesOptions } from './baseValues.js';
import { injectStream } from './inject.js';
import { NAMESPACE_KIND, workloadKind } from './kinds.js';
import { objectNodes } from './objects.js';
import { PLAIN_GLYPHS, injectReportText, uninjectReportText, type Glyphs } from './report.js';
import { proxySettings } from './settings.js';
import { uninjectStream } from './uninject.js';

/*
 * The whole of `linkerd inject` / `uninject` below the command line: read every input, work out the
 * values, transform each input, and say what to print. Nothing is printed here; a failed input means
 * no output at all (stdout stays empty) and linkerd's `Error transforming resources:` text.
 */

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
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
  verbose: boolean;
  glyphs?: Glyphs;
  readers?: SourceReaders;
  createdBy?: string;
}

function readStreams(sources: Awaited<ReturnType<typeof readManifestSources>>): ManifestStream[] {
  return sources.map((s) => parseManifestStream(s));
}

/** A document's `kind`, lower-cased; '' when it is not a string. */
const lowerKind = (kind: unknown): string => (typeof kind === 'string' ? kind.toLowerCase() : '');

function roots(stream: ManifestStream): Array<{ doc: Document; obj: Record<string, unknown> }> {
  const out: Array<{ doc: Document; obj: Record<string, unknown> }> = [];
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

/** Annotations of Namespace objects in the input, which --manual honours like the cluster's. */
function inputNamespaceAnnotations(streams: readonly ManifestStream[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const s of streams) {
    for (const { obj } of roots(s)) {
      if (lowerKind(obj.kind) !== NAMESPACE_KIND) continue;
      const ann = metaField(obj, 'annotations');
      const name = metaField(obj, 'name');
      if (typeof name === 'string' && isMap(ann)) out.set(name, ann.toJSON() as Record<string, string>);
    }
  }
  return out;
}

function workloadNamespaces(streams: readonly ManifestStream[], fallback: string): Set<string> {
  const out = new Set<string>();
  for (const s of streams) {
    for (const { obj } of roots(s)) {
      if (!workloadKind(lowerKind(obj.kind))) continue;
      const ns = metaField(obj, 'namespace');
      out.add(typeof ns === 'string' && ns !== '' ? ns : fallback);
    }
  }
  return out;
}

export async function runInject(req: InjectRequest): Promise<CommandResult> {
  const glyphs = req.glyphs ?? PLAIN_GLYPHS;
  const streams = readStreams(await readManifestSources(req.inputs, req.readers));
  const base = await resolveBaseValues(req.base);
  try {
    const settings = proxySettings({ base: base.values, flags: req.flags, debugSidecar: req.debugSidecar, closeWaitTimeout: req.closeWaitTimeout });
    const defaultNamespace = base.client?.namespace ?? 'default';
    let nsAnnotations = new Map<string, Record<string, string>>();
    if (req.manual) {
      if (base.client) nsAnnotations = await clusterNamespaceAnnotations(base.client, workloadNamespaces(streams, defaultNamespace));
      for (const [k, v] of inputNamespaceAnnotations(streams)) nsAnnotations.set(k, v);
    }
    let stderr = deprecationWarnings(req.flags).map((l) => `${l}\n`).join('');
    stderr += base.notes.map((n) => `${glyphs.warn} ${n}\n`).join('');
    const outputs: StreamOutput[] = [];
    let reports = '';
    for (const stream of streams) {
      const r = injectStream(
        stream,
        {
          manual: req.manual,
          ...settings,
          controlPlaneNamespace: req.base.controlPlaneNamespace,
          createdBy: req.createdBy ?? cliCreatedBy(),
          defaultNamespace,
          namespaceAnnotations: (ns) => nsAnnotations.get(ns),
        },
        req.output,
      );
      if (!r.output) {
        return { stdout: '', stderr: `${stderr}Error transforming resources:\n${r.errors.join('\n')}`, exitCode: 1 };
      }
      outputs.push(r.output);
      reports += injectReportText(r.reports, { verbose: req.verbose, glyphs, notes: r.notes });
    }
    return { stdout: joinOutputs(outputs), stderr: stderr + reports, exitCode: 0 };
  } finally {
    base.client?.close();
  }
}

export interface UninjectRequest {
  inputs: readonly string[];
  output: OutputFormat;
  readers?: SourceReaders;
}

export async function runUninject(req: UninjectRequest): Promise<CommandResult> {
  const streams = readStreams(await readManifestSources(req.inputs, req.readers));
  const outputs: StreamOutput[] = [];
  let stderr = '';
  for (const stream of streams) {
    const r = uninjectStream(stream, req.output);
    outputs.push(r.output);
    stderr += uninjectReportText(r.reports);
  }
  return { stdout: joinOutputs(outputs), stderr, exitCode: 0 };
}
