import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import * as z from 'zod';
import { UserError, firstLine } from '../errors.js';
import type { ManifestStream } from '../manifest/stream.js';
import { onInterrupt } from '../onInterrupt.js';
import { snapshotBlobArg } from '../snapshotBlobArg.js';
import { WorkerLost, type BatchRun } from './batch.js';
import type { Offload } from './transform.js';
import { rethrown, type InjectJob, type InjectReply, type InjectWorkerData, type NamespacesMessage } from './injectWorkerMessages.js';

/*
 * Large YAML inputs are injected on worker threads (injectWorker.ts): the main thread reads and
 * cuts the input, hands batches of documents out, injects batches itself while every worker is
 * busy, and writes the results in input order (transform.ts). Small inputs never start a worker: threads cost more to
 * start than a few megabytes take to inject.
 */

/** Characters of YAML read before workers start (LINKERD_TS_INJECT_WORKERS_AFTER changes it, for tests). */
export const WORKERS_AFTER = 2 << 20;
/** Documents larger than this are injected on the main thread, whose heap is not capped. */
const MAX_WORKER_DOCUMENT = 256 << 10;
/** Batches in flight per worker: one to work on, one waiting, so it never idles between them. */
const PER_WORKER = 2;
/** Characters of YAML per batch: 1/64 of the threshold (32 KiB by default), so small test inputs still make several. */
const MAX_BATCH = 32 << 10;
const MIN_BATCH = 1 << 10;
const MAX_WORKERS = 4;
/** A worker's heap: a document of MAX_WORKER_DOCUMENT needs a few megabytes. */
const WORKER_HEAP_MB = 64;

const EnvSchema = z.object({
  LINKERD_TS_INJECT_WORKERS: z.coerce.number().int().min(0).max(16).optional(),
  LINKERD_TS_INJECT_WORKERS_AFTER: z.coerce.number().int().min(0).optional(),
});

export interface WorkerPlan {
  /** Worker threads to start once `after` characters of YAML were read (0: never). */
  count: number;
  after: number;
}

/**
 * How many workers, and when: LINKERD_TS_INJECT_WORKERS=N sets the number (0 = none); by default
 * one per core but one (the main thread has its own work), at most 4, and none on one core.
 */
export function workerPlan(env: NodeJS.ProcessEnv = process.env): WorkerPlan {
  const parsed = EnvSchema.safeParse({
    LINKERD_TS_INJECT_WORKERS: env.LINKERD_TS_INJECT_WORKERS || undefined,
    LINKERD_TS_INJECT_WORKERS_AFTER: env.LINKERD_TS_INJECT_WORKERS_AFTER || undefined,
  });
  if (!parsed.success) {
    const key = parsed.error.issues[0]?.path[0];
    throw new UserError(`${String(key)} must be a whole number${key === 'LINKERD_TS_INJECT_WORKERS' ? ' from 0 to 16' : ''}`);
  }
  const cores = os.availableParallelism();
  const count = parsed.data.LINKERD_TS_INJECT_WORKERS ?? (cores > 1 ? Math.min(MAX_WORKERS, Math.max(1, cores - 1)) : 0);
  return { count, after: parsed.data.LINKERD_TS_INJECT_WORKERS_AFTER ?? WORKERS_AFTER };
}

/**
 * The worker's script: dist/bundle/injectWorker.js beside the bundle (found from the start-up
 * snapshot's blob in dist/snapshot/, or from the bundle's chunk), or injectWorker.js beside this
 * module in dist/src. Undefined when there is none (TypeScript sources run in-process).
 */
export function injectWorkerFile(): string | undefined {
  const candidates: string[] = [];
  const blob = snapshotBlobArg();
  if (blob !== undefined) candidates.push(path.resolve(path.dirname(path.resolve(blob)), '../bundle/injectWorker.js'));
  // Empty in the start-up snapshot (a CommonJS build): its code has no file of its own.
  const url = import.meta.url as string | undefined;
  if (url?.startsWith('file:')) {
    const here = path.dirname(fileURLToPath(url));
    candidates.push(path.join(here, 'injectWorker.js'), path.join(here, '..', 'injectWorker.js'));
  }
  return candidates.find((f) => existsSync(f));
}

interface Pending {
  name: string;
  resolve: (r: BatchRun) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  dead: boolean;
}

export class InjectPool {
  private readonly slots: Slot[];
  private nextId = 0;
  private readonly releaseInterrupt: () => void;

  private constructor(workers: Worker[]) {
    this.slots = workers.map((worker) => {
      const slot: Slot = { worker, pending: new Map(), dead: false };
      worker.on('message', (reply: InjectReply) => {
        this.settle(slot, reply);
      });
      worker.on('messageerror', (e) => {
        this.fail(slot, e.message, true);
      });
      worker.on('error', (e) => {
        this.fail(slot, firstLine(e), true);
      });
      worker.on('exit', (code) => {
        this.fail(slot, `it stopped with exit code ${String(code)}`, true);
      });
      return slot;
    });
    // A signal ends the process, and its threads with it; this stops them first.
    this.releaseInterrupt = onInterrupt(() => {
      for (const s of this.slots) void s.worker.terminate();
    });
  }

  /** Starts `count` workers running `file`; undefined when worker threads cannot be used here. */
  static start(count: number, data: InjectWorkerData, file = injectWorkerFile()): InjectPool | undefined {
    // Fetched, not imported: the start-up snapshot cannot hold node:worker_threads.
    if (file === undefined || count < 1 || typeof process.getBuiltinModule !== 'function') return undefined;
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const workers = Array.from({ length: count }, () => new Worker(file, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } }));
    return new InjectPool(workers);
  }

  /** The namespaces' annotations, for every document sent from now on. */
  setNamespaces(namespaces: NamespacesMessage['namespaces']): void {
    const message: NamespacesMessage = { namespaces };
    for (const s of this.slots) if (!s.dead) s.worker.postMessage(message);
  }

  /**
   * The batch's injection on a worker, or undefined when the main thread is to do it: a document
   * in it is large, or every worker has enough to do.
   */
  offer(batch: readonly ManifestStream[]): Promise<BatchRun> | undefined {
    const first = batch[0];
    if (!first || batch.some((s) => s.source.text.length > MAX_WORKER_DOCUMENT)) return undefined;
    let slot: Slot | undefined;
    for (const s of this.slots) if (!s.dead && s.pending.size < PER_WORKER && (!slot || s.pending.size < slot.pending.size)) slot = s;
    if (!slot) return undefined;
    const name = first.source.name;
    const job: InjectJob = { id: this.nextId++, name, docs: batch.map((s) => ({ text: s.source.text, lineOffset: s.source.lineOffset ?? 0 })) };
    const pending = slot.pending;
    const result = new Promise<BatchRun>((resolve, reject) => pending.set(job.id, { name, resolve, reject }));
    slot.worker.postMessage(job);
    return result;
  }

  private settle(slot: Slot, reply: InjectReply): void {
    const p = slot.pending.get(reply.id);
    if (!p) return;
    slot.pending.delete(reply.id);
    p.resolve(reply.thrown === undefined ? { run: reply.run } : { run: reply.run, thrown: rethrown(reply.thrown) });
  }

  /**
   * A worker that died (`lost`) hands every batch it had back to the main thread (WorkerLost);
   * one that was stopped fails them with an error naming the input.
   */
  private fail(slot: Slot, reason: string, lost = false): void {
    slot.dead = true;
    for (const p of slot.pending.values()) {
      const message = `${p.name}: the worker thread injecting it failed: ${reason}`;
      p.reject(lost ? new WorkerLost(message) : new UserError(message));
    }
    slot.pending.clear();
  }

  /** Stops every worker (and fails what they still had). */
  async close(): Promise<void> {
    this.releaseInterrupt();
    for (const s of this.slots) this.fail(s, 'it was stopped');
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

export interface WorkerOffload {
  offload: Offload;
  /** Counts characters of YAML read elsewhere (--manual's first pass). */
  read: (chars: number) => void;
  /** The namespaces' annotations, once known (before the first document is offered). */
  setNamespaces: (namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>) => void;
  stop: () => Promise<void>;
}

/**
 * Injection on worker threads (an InjectPool) once `plan.after` characters of YAML were read,
 * counting those `--manual`'s first pass read, during which they may start; `stop` ends them, on
 * every way out.
 */
export function workerOffload(plan: WorkerPlan, data: InjectWorkerData): WorkerOffload {
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
    offload: {
      offer: (batch) => {
        if (!started) for (const s of batch) count(s.source.text.length);
        return pool?.offer(batch);
      },
      batchChars: Math.min(MAX_BATCH, Math.max(MIN_BATCH, Math.floor(plan.after / 64))),
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
