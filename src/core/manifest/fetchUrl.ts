import { UserError } from '../errors.js';
import { netErrorText, urlErrorMessage } from '../net/netErrorText.js';
import { outboundFetch } from '../net/outboundFetch.js';

/*
 * Reading a file named by URL, shared by `linkerd inject URL` and `linkerd install -f URL`.
 * Only https is fetched, as the real CLI does, except plain http from loopback hosts
 * (127.0.0.0/8, ::1, localhost): nothing leaves the machine there, and it lets a local file
 * server or a test serve input. Every failure is one line naming the URL.
 */

export interface FetchOptions {
  /** Fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
  /** Deadline for the whole request, body included, in milliseconds. */
  timeoutMs?: number;
}

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
  const { init, proxy } = await outboundFetch(new URL(arg));
  const timedOut = () => (signal.aborted ? 'headers' : undefined);
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(arg, { signal, redirect: 'follow', ...init });
  } catch (e) {
    throw networkError(arg, e, timedOut(), proxy);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw new UserError(`unable to read URL "${arg}", server reported ${res.status} ${res.statusText}, status code=${res.status}`);
  }
  try {
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw networkError(arg, e, signal.aborted ? 'body' : undefined, proxy);
  }
}
