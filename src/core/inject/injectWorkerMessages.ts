import { UserError } from '../errors.js';
import type { OutputFormat } from '../manifest/write.js';
import type { InjectSettings, InjectStreamResult } from './inject.js';

/*
 * What the main thread and an inject worker (injectWorker.ts, injectPool.ts) say to each other.
 * Everything crosses by structured clone, so the namespaces' annotations cross as a map instead of
 * the function that looks them up.
 */

export interface InjectWorkerData {
  settings: Omit<InjectSettings, 'namespaceAnnotations'>;
  format: OutputFormat;
}

/**
 * `config.linkerd.io/*` annotations by namespace (what InjectSettings.namespaceAnnotations reads),
 * sent before the first document: workers may start while --manual's first pass gathers them.
 */
export interface NamespacesMessage {
  namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** Consecutive YAML documents to inject: segments of the input named `name`. */
export interface InjectJob {
  id: number;
  name: string;
  docs: { text: string; lineOffset: number }[];
}

/** What a document's injection threw, in a form that survives the trip. */
export type Thrown =
  { kind: 'user'; message: string; exitCode: number; hint?: string; verbatim: boolean } | { kind: 'other'; name: string; message: string; stack?: string };

/** A batch's result from a worker: the documents' text as UTF-8 bytes (their buffer is transferred). */
export type WorkerRun = Omit<InjectStreamResult, 'output'> & { output?: { format: NonNullable<InjectStreamResult['output']>['format']; bytes: Uint8Array } };

export interface InjectReply {
  id: number;
  run: WorkerRun;
  /** What the document after the batch's last result threw. */
  thrown?: Thrown;
}

export function thrownOf(e: unknown): Thrown {
  if (e instanceof UserError) return { kind: 'user', message: e.message, exitCode: e.exitCode, hint: e.hint, verbatim: e.verbatim };
  if (e instanceof Error) return { kind: 'other', name: e.name, message: e.message, stack: e.stack };
  return { kind: 'other', name: 'Error', message: String(e) };
}

/** The error to throw on the main thread for what a worker caught. */
export function rethrown(t: Thrown): Error {
  if (t.kind === 'user') return new UserError(t.message, { exitCode: t.exitCode, hint: t.hint }, t.verbatim);
  const e = new Error(t.message);
  e.name = t.name;
  if (t.stack !== undefined) e.stack = t.stack;
  return e;
}
