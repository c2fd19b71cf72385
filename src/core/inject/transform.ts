import type { ManifestOutput } from '../manifest/output.js';
import type { ManifestInput } from '../manifest/sources.js';
import { inputStreams, type ManifestStream } from '../manifest/stream.js';
import { WorkerLost, runBatch, type BatchRun, type StreamRun, type TextRun } from './batch.js';
import type { InputReport } from './run.js';

/*
 * A per-document transform (inject, uninject) over every input, written in input order. With an
 * offload (inject's worker threads, injectPool.ts), consecutive YAML documents go out in batches
 * while this thread runs batches of its own whenever the workers have enough; results are taken
 * in input order whoever ran them, so the output, the reports and the first error thrown are
 * those of a run on one thread.
 */

/** Hands a batch of consecutive YAML documents to a worker (a promise of its run), or says no (undefined): it is then run here. */
export interface Offload {
  offer: (batch: readonly ManifestStream[]) => Promise<BatchRun> | undefined;
  /** Characters of YAML per batch. */
  batchChars: number;
}

/** A batch, run here or on a worker, waiting for those before it to be written. */
interface Entry {
  settled: boolean;
  batch?: BatchRun;
  /** What the worker's promise rejected with (the worker failed). */
  failure?: { thrown: unknown };
  /** Resolves once settled (never rejects). */
  done: Promise<void>;
}

function pendingEntry(p: Promise<BatchRun>): Entry {
  const entry: Entry = { settled: false, done: Promise.resolve() };
  entry.done = p.then(
    (batch) => {
      entry.batch = batch;
      entry.settled = true;
    },
    (e: unknown) => {
      entry.failure = { thrown: e };
      entry.settled = true;
    },
  );
  return entry;
}

/** Batches waiting to be written: bounds the memory their results hold (a few megabytes each at most). */
const MAX_WAITING = 16;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `each` over every document of every input, writing what it returns; the reports are
 * gathered per input, and the first input with errors makes the whole output void.
 */
export async function transformInputs(
  inputs: readonly ManifestInput[],
  output: ManifestOutput,
  each: (stream: ManifestStream) => TextRun,
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
        if (head.failure) throw head.failure.thrown;
        if (head.batch) {
          apply(head.batch.run);
          if ('thrown' in head.batch) throw head.batch.thrown;
        }
      }
    };
    const drain = async () => {
      for (let head = waiting[0]; head; head = waiting[0]) {
        await head.done;
        flush();
      }
    };
    let batch: ManifestStream[] = [];
    let batchChars = 0;
    /** Runs the batch gathered so far: on a worker if one takes it (and it may go there), else here. */
    const dispatch = async (mayOffload = true) => {
      if (batch.length === 0) return;
      const streams = batch;
      batch = [];
      batchChars = 0;
      const job = mayOffload ? offload?.offer(streams) : undefined;
      // A batch its worker died under is injected here: what one thread can do never fails on a worker.
      if (job)
        waiting.push(
          pendingEntry(
            job.catch((e: unknown) => {
              if (e instanceof WorkerLost) return runBatch(streams, each);
              throw e;
            }),
          ),
        );
      else if (waiting.length === 0) {
        for (const stream of streams) apply(each(stream));
        return;
      } else {
        waiting.push({ settled: true, batch: runBatch(streams, each), done: Promise.resolve() });
        // Lets the workers' results in between batches run here.
        await nextTurn();
      }
      flush();
      while (waiting.length > MAX_WAITING) {
        await waiting[0]?.done;
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
          // What was read before the failure comes first, as on one thread (it may fail itself).
          await dispatch();
          await drain();
          throw e;
        }
        if (next.done === true) break;
        const stream = next.value;
        if (offload && stream.segment === true) {
          batch.push(stream);
          batchChars += stream.source.text.length;
          if (batchChars >= offload.batchChars) await dispatch();
        } else {
          await dispatch();
          batch = [stream];
          await dispatch(false);
        }
      }
      await dispatch();
    } finally {
      await streams.return(undefined);
    }
    await drain();
    if (inputErrors.length > 0) errors ??= inputErrors;
    reports.push(report);
  }
  return { inputs: reports, errors };
}
