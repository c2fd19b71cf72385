import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frame, FrameError, readFrames } from '../../../../src/families/viz/tap/frames.js';
import { decodeTapEvent, encodeTapEvent } from '../../../../src/families/viz/tap/proto.js';
import { tapLineJson } from '../../../../src/families/viz/tap/render.js';
import { sampleEvents } from '../../../support/tap-events.js';

async function all(chunks: Uint8Array[], max?: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const f of readFrames(chunks, max)) out.push(f);
  return out;
}

/** `bytes` cut at the given offsets. */
const cut = (bytes: Buffer, at: number[]) => {
  const points = [...new Set(at.map((a) => a % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((p, i) => bytes.subarray(p, points[i] ?? bytes.length));
};

describe('protohttp frames', () => {
  it('reads the same frames however the stream is cut into chunks', async () => {
    const messages = sampleEvents().map((e) => encodeTapEvent(e));
    const bytes = Buffer.concat(messages.map(frame));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (at) => {
        const frames = await all(cut(bytes, at));
        expect(frames.map((f) => Buffer.from(f).toString('hex'))).toEqual(messages.map((m) => Buffer.from(m).toString('hex')));
      }),
    );
  });

  it('round-trips every sample event through its encoding, as the JSON output shows it', () => {
    for (const e of sampleEvents()) expect(tapLineJson(decodeTapEvent(encodeTapEvent(e)))).toBe(tapLineJson(e));
  });

  it('refuses a length over the limit before reading the frame, and a stream ending inside a frame', async () => {
    await expect(all([Buffer.from([0xff, 0, 0, 0])], 16)).rejects.toThrow(
      new FrameError('error while reading message length: a frame of 255 bytes is over the limit of 16 bytes'),
    );
    await expect(all([Buffer.from([4, 0, 0, 0, 1])])).rejects.toThrow('error while reading bytes from message: unexpected EOF');
    await expect(all([Buffer.from([4, 0])])).rejects.toThrow('error while reading message length: unexpected EOF');
    expect(await all([Buffer.from([0, 0, 0, 0])])).toEqual([new Uint8Array(0)]);
  });

  it('refuses a TapEvent whose fields run past their message', () => {
    // field 1 (source), length 10, but only 2 bytes follow
    expect(() => decodeTapEvent(Uint8Array.from([0x0a, 0x0a, 0x10, 0x01]))).toThrow();
  });
});
