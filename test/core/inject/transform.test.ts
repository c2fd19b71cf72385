import { describe, expect, it } from 'vitest';
import { runBatch, type BatchRun, type TextRun } from '../../../src/core/inject/batch.js';
import { transformInputs, type Offload } from '../../../src/core/inject/transform.js';
import { ManifestOutput } from '../../../src/core/manifest/output.js';
import type { InputReport } from '../../../src/core/inject/run.js';
import type { ManifestInput } from '../../../src/core/manifest/sources.js';
import type { ManifestStream } from '../../../src/core/manifest/stream.js';

/*
 * The order-keeping part of inject's worker threads, without threads: a stand-in offload takes
 * some batches (finishing them after random delays, out of order) and leaves the rest to the main
 * thread. Whatever ran where, the output, the reports, the errors and the first error thrown must
 * be those of a run with no offload at all.
 */

/** An input read in small chunks, as a file or a pipe would be. */
function input(name: string, text: string): ManifestInput {
  return {
    name,
    chunks: async function* () {
      for (let i = 0; i < text.length; i += 37) yield text.slice(i, i + 37);
    },
  };
}

/** The stand-in transform: upper-cases a document; `bad` is a collected error, `boom` a thrown one. */
function each(stream: ManifestStream): TextRun {
  const { text, lineOffset } = stream.source;
  if (text.includes('boom')) throw new Error(`boom at line ${String(lineOffset)}`);
  const name = /name: (\S+)/.exec(text)?.[1] ?? '';
  return {
    output: { format: 'yaml', text: text.toUpperCase() },
    reports: [{ kind: 'configmap', name, outcome: 'injected' }],
    notes: [],
    errors: text.includes('bad') ? [`bad at line ${String(lineOffset)}`] : [],
  };
}

const docs = (n: number, special: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => `---\nkind: ConfigMap\nmetadata:\n  name: cm${String(i)}\ndata:\n  note: ${special[i] ?? 'fine'}\n`).join('');

/** Takes every batch whose number `takes` picks; settles it after 0–4 ms (rejects those `fails` picks). */
function standIn(takes: (n: number) => boolean, fails: (n: number) => boolean = () => false): Offload & { taken: number; offered: number } {
  const offload = {
    taken: 0,
    offered: 0,
    batchChars: 200,
    offer(batch: readonly ManifestStream[]): Promise<BatchRun> | undefined {
      const n = offload.offered++;
      if (!takes(n)) return undefined;
      offload.taken++;
      return new Promise((resolve, reject) => {
        setTimeout(
          () => {
            if (fails(n)) reject(new Error(`worker failed on batch ${String(n)}`));
            else resolve(runBatch(batch, each));
          },
          Math.floor(Math.random() * 5),
        );
      });
    },
  };
  return offload;
}

interface Outcome {
  inputs?: InputReport[];
  errors?: string[];
  text?: string;
  thrown?: string;
}

async function run(inputs: ManifestInput[], offload?: Offload): Promise<Outcome> {
  const output = new ManifestOutput();
  try {
    const r = await transformInputs(inputs, output, each, offload);
    // With errors, nothing is printed: what was written before them (per batch or per document) does not matter.
    return r.errors ? r : { ...r, text: await output.text() };
  } catch (e) {
    return { thrown: (e as Error).message };
  } finally {
    output.dispose();
  }
}

describe('transformInputs with an offload', () => {
  const cases: Array<[string, string[]]> = [
    ['plain documents', [docs(80)]],
    ['a collected error', [docs(80, { 37: 'bad' })]],
    ['a thrown error', [docs(80, { 41: 'boom' })]],
    ['a collected error before a thrown one', [docs(80, { 12: 'bad', 61: 'boom' })]],
    ['two thrown errors: the first counts', [docs(80, { 20: 'boom', 50: 'boom' })]],
    ['several inputs, the second with errors', [docs(30), docs(30, { 5: 'bad' }), docs(30)]],
  ];
  for (const [label, texts] of cases) {
    it(`gives what one thread gives: ${label}`, async () => {
      const inputs = texts.map((t, i) => input(`in${String(i)}.yaml`, t));
      const one = await run(inputs);
      for (const takes of [(n: number) => n % 2 === 0, (n: number) => n % 3 !== 2, () => true]) {
        const offload = standIn(takes);
        expect(await run(inputs, offload)).toEqual(one);
        expect(offload.taken).toBeGreaterThan(1);
      }
    });
  }

  it('runs batches on both sides, in input order', async () => {
    const offload = standIn((n) => n % 2 === 1);
    const r = await run([input('in.yaml', docs(80))], offload);
    expect(offload.offered).toBeGreaterThan(10);
    expect(r.text).toBe(docs(80).toUpperCase());
    expect(r.inputs?.[0]?.reports.map((d) => d.name)).toEqual(Array.from({ length: 80 }, (_, i) => `cm${String(i)}`));
  });

  it('ends with the failure of a worker that failed, not with a later document', async () => {
    const r = await run(
      [input('in.yaml', docs(80, { 70: 'boom' }))],
      standIn(
        () => true,
        (n) => n === 3,
      ),
    );
    expect(r).toEqual({ thrown: 'worker failed on batch 3' });
  });
});
