import { UserError } from '../errors.js';
import { readResponseBounded } from '../input/boundedRead.js';
import { type InputLimit, MANIFEST_LIMIT } from '../input/limits.js';

/*
 * Reading a file named by URL, shared by `linkerd inject URL` and `linkerd install -f URL`.
 * Only https is fetched, as the real CLI does, except plain http from loopback hosts
 * (127.0.0.0/8, ::1, localhost): nothing leaves the machine there, and it lets a local file
 * server or a test serve input. Redirects are followed by hand (at most 10, like Go's client), each
 * hop checked by the same rule before anything connects to it, so an https URL cannot hand the
 * request to plain http elsewhere. Bodies are read up to a limit, counted after gzip/deflate
 * decoding. Every failure is one line naming the URL (and the hop, for a redirect).
 */

export interface FetchOptions {
  /** Fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
  /** Deadline for the whole request, body included, in milliseconds. */
  timeoutMs?: number;
  /** Most bytes read from the (decoded) body; a manifest's limit by default. */
  limit?: InputLimit;
}

/** Go's http.Client stops after 10 redirects. */
export const MAX_REDIRECTS = 10;

export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** Like Go's url.ParseRequestURI plus a host: what the real CLI treats as a URL. */
export function isUrl(arg: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]/.test(arg)) return false;
  try {
    return new URL(arg).host !== '';
  } catch {
    return false;
  }
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** https anywhere, plain http only from a loopback host. */
export function isFetchableUrl(arg: string): boolean {
  const url = new URL(arg);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

function networkError(arg: string, e: unknown, timeoutMs: number): UserError {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const name = (e as Error).name;
  const why =
    name === 'TimeoutError' || name === 'AbortError'
      ? `request timed out after ${timeoutMs / 1000}s`
      : cause?.code ?? cause?.message ?? (e as Error).message;
  return new UserError(`Get "${arg}": ${why}`);
}

/**
 * The body of `arg` (a URL for which isUrl holds). Refuses what isFetchableUrl refuses with the real
 * CLI's `only HTTPS URLs are allowed`; callers wanting a message of their own check first.
 */
export async function fetchUrl(arg: string, opts: FetchOptions = {}): Promise<Uint8Array> {
  if (!isFetchableUrl(arg)) throw new UserError('only HTTPS URLs are allowed');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = arg;
  let res: Response;
  for (let hops = 0; ; hops++) {
    try {
      res = await (opts.fetch ?? fetch)(url, { signal, redirect: 'manual' });
    } catch (e) {
      throw networkError(url, e, timeoutMs);
    }
    const location = REDIRECTS.has(res.status) ? res.headers.get('location') : null;
    if (location === null) break;
    await res.body?.cancel().catch(() => undefined);
    if (hops + 1 > MAX_REDIRECTS) throw new UserError(`Get "${url}": stopped after ${MAX_REDIRECTS} redirects`);
    url = nextHop(url, location);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    throw new UserError(`unable to read URL "${url}", server reported ${res.status} ${res.statusText}, status code=${res.status}`);
  }
  try {
    return await readResponseBounded(res, opts.limit ?? MANIFEST_LIMIT, url);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw networkError(url, e, timeoutMs);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL a redirect points to, refused (naming both hops) unless it could have been asked for directly. */
function nextHop(from: string, location: string): string {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    throw new UserError(`Get "${from}": redirect to an invalid URL ${JSON.stringify(location)}`);
  }
  if (!isFetchableUrl(to.href)) {
    throw new UserError(`Get "${to.href}" (redirected from "${from}"): only HTTPS URLs are allowed (plain http only to a loopback host)`);
  }
  return to.href;
}
