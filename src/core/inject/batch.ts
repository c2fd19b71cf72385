import { UserError } from '../errors.js';
import type { ManifestStream } from '../manifest/stream.js';
import type { StreamOutput } from '../manifest/write.js';
import type { DocReport, ReportNote } from './report.js';

/*
 * Consecutive YAML documents of one input run as one batch (on a worker thread or on the main
 * thread while the workers are busy): their results taken together, in order, as if written one
 * by one. A run of them stops at the first document that throws, which is kept to be thrown once
 * the results before it are written.
 */

/**
 * What a batch's promise rejects with when its worker died under it (its heap cap reached, most
 * often): nothing of it was written, so the main thread, whose heap is not capped, injects it.
 */
export class WorkerLost extends UserError {}

/** One document's (or one batch's) result; from a worker thread, the text as UTF-8 bytes (moved, not copied). */
export interface StreamRun {
  output?: StreamOutput | { format: StreamOutput['format']; bytes: Uint8Array };
  reports: DocReport[];
  notes: ReportNote[];
  errors: string[];
}

/** A result whose text is still a string (not yet sent from a worker). */
export type TextRun = StreamRun & { output?: StreamOutput };

export interface BatchRun<Run extends StreamRun = StreamRun> {
  run: Run;
  /** What the document after the last one in `run` threw. */
  thrown?: unknown;
}

/**
 * `each` over the documents until one throws. The output is that of every document in turn (in
 * the format of the first with output, which is the only one ManifestOutput reads for an input).
 */
export function runBatch(streams: readonly ManifestStream[], each: (stream: ManifestStream) => TextRun): BatchRun<TextRun> {
  const run: TextRun = { reports: [], notes: [], errors: [] };
  const texts: string[] = [];
  let thrown: unknown;
  let failed = false;
  for (const stream of streams) {
    let r: ReturnType<typeof each>;
    try {
      r = each(stream);
    } catch (e) {
      thrown = e;
      failed = true;
      break;
    }
    run.reports.push(...r.reports);
    run.notes.push(...r.notes);
    run.errors.push(...r.errors);
    if (r.output) {
      run.output ??= { format: r.output.format, text: '' };
      texts.push(r.output.text);
    }
  }
  if (run.output) run.output.text = texts.join('');
  return failed ? { run, thrown } : { run };
}
