/*
 * linkerd's protohttp framing: each message is a little-endian uint32 length, then that many bytes
 * of protobuf. Frames are read from an async byte stream one at a time: the next chunk is pulled
 * only when the consumer asks for the next frame, so a slow printer slows the socket (backpressure)
 * and memory holds at most one frame plus one chunk. A length over the limit is refused before any
 * of its bytes are buffered.
 */

/** Largest frame accepted: a TapEvent with its headers is a few KiB; gRPC's default cap is 4 MiB. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

const LENGTH_BYTES = 4;

/** The stream ended inside a frame, or a frame is over the limit; the message is protohttp's. */
export class FrameError extends Error {}

/**
 * The frames of `chunks`, each a fresh Uint8Array. Ends quietly at a frame boundary (the server
 * closed the stream); throws FrameError when it ends mid-frame or a length is over `maxFrame`.
 */
export async function* readFrames(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxFrame = MAX_FRAME_BYTES,
): AsyncGenerator<Uint8Array, void, undefined> {
  let pending: Uint8Array[] = [];
  let buffered = 0;
  /** Bytes wanted next: the length prefix, or the frame it announced. */
  let want = LENGTH_BYTES;
  let inBody = false;

  const take = (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    let filled = 0;
    for (let head = pending[0]; filled < n && head !== undefined; head = pending[0]) {
      const used = Math.min(head.length, n - filled);
      out.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.length) pending.shift();
      else pending[0] = head.subarray(used);
    }
    buffered -= n;
    return out;
  };

  const ended = () => new FrameError(inBody ? 'error while reading bytes from message: unexpected EOF' : 'error while reading message length: unexpected EOF');
  const source = (async function* () {
    try {
      yield* chunks;
    } catch {
      // The connection broke (reset, aborted): to the reader, the stream ended early.
      throw ended();
    }
  })();
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    pending.push(chunk);
    buffered += chunk.length;
    while (buffered >= want) {
      const bytes = take(want);
      if (!inBody) {
        const length = new DataView(bytes.buffer, bytes.byteOffset, LENGTH_BYTES).getUint32(0, true);
        if (length > maxFrame) {
          pending = [];
          throw new FrameError(`error while reading message length: a frame of ${length} bytes is over the limit of ${maxFrame} bytes`);
        }
        want = length;
        inBody = true;
        if (length > 0) continue;
        yield new Uint8Array(0);
      } else yield bytes;
      want = LENGTH_BYTES;
      inBody = false;
    }
  }
  if (inBody || buffered > 0) throw ended();
}

/** One frame's bytes: the length prefix and the message (for servers, tests and benches). */
export function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(LENGTH_BYTES + message.length);
  out.writeUInt32LE(message.length, 0);
  out.set(message, LENGTH_BYTES);
  return out;
}
