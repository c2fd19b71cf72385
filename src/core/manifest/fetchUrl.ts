import { UserError } from '../errors.js';
import { netErrorText, urlErrorMessage } from '../net/netErrorText.js';
import { outboundFetch, type OutboundFetch } from '../net/outboundFetch.js';
import { readResponseBounded } from '../input/boundedRead.js';
import { type InputLimit, MANIFEST_LIMIT } from '../input/limits.js';
import { redactedUrl, redactUrlsIn } from '../net/redactedUrl.js';

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
  if (outOfRangePort(arg) !== undefined) return true;
  try {
    return new URL(arg).host !== '';
  } catch {
    return false;
  }
}

/** A port past 65535, which Go's URL parser accepts and only its dialer refuses (WHATWG URLs refuse it at once). */
function outOfRangePort(arg: string): string | undefined {
  const port = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)(?:[/?#]|$)/.exec(arg)?.[1];
  return port !== undefined && Number(port) > 65535 ? port : undefined;
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

function networkError(url: string, e: unknown, timedOut: 'headers' | 'body' | undefined, proxy: URL | undefined): UserError {
  return new UserError(urlErrorMessage('GET', url, netErrorText(e, { target: new URL(url), proxy, timedOut }).text));
}

/**
 * The body of `arg` (a URL for which isUrl holds). Refuses what isFetchableUrl refuses with the real
 * CLI's `only HTTPS URLs are allowed`; callers wanting a message of their own check first.
 */
export async function fetchUrl(arg: string, opts: FetchOptions = {}): Promise<Uint8Array> {
  const badPort = outOfRangePort(arg);
  if (badPort !== undefined) throw new UserError(urlErrorMessage('GET', arg, `dial tcp: address ${badPort}: invalid port`));
  if (!isFetchableUrl(arg)) throw new UserError('only HTTPS URLs are allowed');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = arg;
  let res: Response;
  let init: OutboundFetch['init'];
  let proxy: URL | undefined;
  for (let hops = 0; ; hops++) {
    try {
      // Each hop is its own request: NO_PROXY may send it another way than the first.
      ({ init, proxy } = await outboundFetch(new URL(url)));
      res = await (opts.fetch ?? fetch)(url, { signal, redirect: 'manual', ...init });
    } catch (e) {
      throw networkError(url, e, signal.aborted ? 'headers' : undefined, proxy);
    }
    const location = REDIRECTS.has(res.status) ? res.headers.get('location') : null;
    if (location === null) break;
    await res.body?.cancel().catch(() => undefined);
    if (hops + 1 > MAX_REDIRECTS) throw new UserError(urlErrorMessage('GET', url, `stopped after ${MAX_REDIRECTS} redirects`));
    url = nextHop(url, location);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    throw new UserError(`unable to read URL "${redactedUrl(url)}", server reported ${res.status} ${res.statusText}, status code=${res.status}`);
  }
  try {
    return await readResponseBounded(res, opts.limit ?? MANIFEST_LIMIT, redactedUrl(url));
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw networkError(url, e, signal.aborted ? 'body' : undefined, proxy);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL a redirect points to, refused (naming both hops) unless it could have been asked for directly. */
function nextHop(from: string, location: string): string {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    throw new UserError(urlErrorMessage('GET', from, `redirect to an invalid URL ${JSON.stringify(redactUrlsIn(location))}`));
  }
  if (!isFetchableUrl(to.href)) {
    throw new UserError(`Get "${redactedUrl(to)}" (redirected from "${redactedUrl(from)}"): only HTTPS URLs are allowed (plain http only to a loopback host)`);
  }
  return to.href;
}
