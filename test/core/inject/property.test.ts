import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { injectStream, type InjectSettings } from '../../../src/core/inject/inject.js';
import { uninjectStream } from '../../../src/core/inject/uninject.js';
import { parseManifestStream } from '../../../src/core/manifest/stream.js';
import { OTHERS, SETTINGS, WORKLOADS, classicCni, manifest, settings, traced } from './generators.js';

/*
 * Properties over generated manifests (generators.ts). At least 1,000 manifests are generated per run.
 */

function inject(text: string, s: InjectSettings): string {
  const r = injectStream(parseManifestStream({ name: 'gen.yaml', text }), s, 'auto');
  expect(r.errors).toEqual([]);
  return r.output!.text;
}

function uninject(text: string): string {
  return uninjectStream(parseManifestStream({ name: 'gen.yaml', text }), 'auto').output.text;
}

const presentDocs = (text: string) => parseManifestStream({ name: 'x', text }).docs.filter((d) => d.present);

describe('inject over generated manifests', () => {
  // One property for both, so each generated manifest is injected once and then re-injected.
  it('never crashes, keeps the number of documents, leaves other kinds byte for byte, and is idempotent: injecting the output again gives the same bytes (400 manifests)', () => {
    fc.assert(
      fc.property(manifest, fc.nat({ max: SETTINGS.length - 1 }), ({ text, count, kinds }, si) => {
        const out = inject(text, SETTINGS[si]);
        const before = presentDocs(text);
        const after = presentDocs(out);
        expect(before).toHaveLength(count);
        expect(after).toHaveLength(count);
        kinds.forEach((kind, i) => {
          if (OTHERS.includes(kind)) {
            expect(out.slice(after[i].region.start, after[i].region.end)).toBe(text.slice(before[i].region.start, before[i].region.end));
          }
        });
        expect(inject(out, SETTINGS[si])).toBe(out);
      }),
      { numRuns: 400 },
    );
  });

  it('uninject(inject(x)) gives back x with tracing on: nothing of podinfo or the trace variables is left (150 manifests)', () => {
    const s = settings(true, [], traced);
    fc.assert(
      fc.property(manifest, ({ text, kinds }) => {
        const out = inject(text, s);
        if (kinds.some((k) => WORKLOADS.includes(k))) expect(out).toContain('linkerd-podinfo');
        expect(uninject(out)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('uninject(inject(x)) gives back x, annotations or the full proxy spec (300 manifests)', () => {
    // Flags would add config.linkerd.io annotations, which uninject keeps (as linkerd does).
    const plain = [settings(false, []), settings(true, []), settings(true, [], classicCni), settings(true, [], traced)];
    fc.assert(
      fc.property(manifest, fc.nat({ max: plain.length - 1 }), ({ text }, si) => {
        expect(uninject(inject(text, plain[si]))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
