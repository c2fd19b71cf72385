import type { IncomingMessage } from 'node:http';
import { UserError } from '../../../core/errors.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { decodeApiError, decodeTapEvent, encodeTapByResourceRequest, type TapByResourceRequest, type TapEvent } from './proto.js';
import { FrameError, MAX_FRAME_BYTES, readFrames } from './frames.js';
import { tapPath } from './request.js';

/*
 * The tap client (linkerd's viz/tap/pkg Reader and pkg/protohttp): the request POSTed as raw
 * protobuf through the API server to the tap APIService, the answer a stream of framed TapEvents.
 * A refusal (the `linkerd-error` header with a framed ApiError, or a non-200 Kubernetes Status)
 * fails before any event is read, in the real CLI's words.
 */

/** The most of an error answer read: a Status, or one framed ApiError. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** The stream broke off, or sent something that is not a TapEvent; the message is protohttp's. */
export class TapStreamError extends Error {}

export interface TapStream {
  /** The events, pulled one at a time; ends when the server closes the stream. */
  events: AsyncGenerator<TapEvent, void, undefined>;
  /** Tear the connection down (the events then end). */
  close(): void;
}

async function readBounded(body: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of body as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > limit) {
      chunks.push(c.subarray(0, c.length - (size - limit)));
      break;
    }
    chunks.push(c);
  }
  body.destroy();
  return Buffer.concat(chunks);
}

/** The `message` of a Kubernetes Status, when the body is one. */
function statusMessage(text: string): string | undefined {
  try {
    const s = JSON.parse(text) as { kind?: unknown; message?: unknown } | null;
    if (s !== null && typeof s === 'object' && s.kind === 'Status') return typeof s.message === 'string' ? s.message : '';
  } catch {
    // not JSON
  }
  return undefined;
}

async function refusal(status: number, linkerdError: string | undefined, body: IncomingMessage): Promise<UserError> {
  const bytes = await readBounded(body, ERROR_BODY_LIMIT);
  if (linkerdError) {
    try {
      const frames = readFrames([bytes], ERROR_BODY_LIMIT);
      const first = await frames.next();
      if (first.done) throw new FrameError('error while reading message length: EOF');
      return UserError.verbatim(`${decodeApiError(first.value)}\n`);
    } catch (e) {
      return UserError.verbatim(
        `Response has linkerd-error header [${linkerdError}], but response body didn't contain protobuf error: ${(e as Error).message}\n`,
      );
    }
  }
  const text = bytes.toString('utf8');
  const message = text.length === 0 ? 'unexpected API response' : (statusMessage(text) ?? `unexpected API response: ${text}`);
  return UserError.verbatim(`HTTP error, status Code [${status}] (${message})\n`);
}

async function* decode(frames: AsyncGenerator<Uint8Array>): AsyncGenerator<TapEvent, void, undefined> {
  try {
    for await (const f of frames) {
      let event: TapEvent;
      try {
        event = decodeTapEvent(f);
      } catch (e) {
        throw new TapStreamError(`error unmarshalling array of [${f.length}] bytes error: ${(e as Error).message}`);
      }
      yield event;
    }
  } catch (e) {
    if (e instanceof FrameError) throw new TapStreamError(e.message);
    throw e;
  }
}

/**
 * Open a tap: POST `req` to the tap APIService and check the answer. Resolves once the server has
 * accepted (the events then arrive as they happen); rejects with the server's refusal.
 */
export async function openTap(
  client: KubeClient,
  req: TapByResourceRequest,
  options: { maxFrameBytes?: number; signal?: AbortSignal } = {},
): Promise<TapStream> {
  const res = await client.postStream(tapPath(req), encodeTapByResourceRequest(req), {
    contentType: 'application/octet-stream',
    signal: options.signal,
    // The real client has no timeout: a tap of a quiet workload may answer only with its first event.
    headersTimeoutMs: null,
  });
  const header = res.headers['linkerd-error'];
  const linkerdError = Array.isArray(header) ? header[0] : header;
  if (linkerdError || res.status !== 200) throw await refusal(res.status, linkerdError, res.body);
  const body = res.body;
  return {
    events: decode(readFrames(body as AsyncIterable<Uint8Array>, options.maxFrameBytes ?? MAX_FRAME_BYTES)),
    close: () => body.destroy(),
  };
}
