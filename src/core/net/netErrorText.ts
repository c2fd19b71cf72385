import { redactedUrl, redactUrlsIn } from './redactedUrl.js';

/*
 * Node's network and TLS failures in the words Go's net/http gives them, so an error from this
 * CLI reads like kubectl's or the Go linkerd CLI's (`dial tcp 127.0.0.1:6443: connect: connection
 * refused`, `x509: certificate signed by unknown authority`), whichever client (node:https or
 * fetch) and whichever proxy library failed. The one place that knows Node's error codes.
 */

export type NetErrorKind = 'unreachable' | 'timeout' | 'tls';

export interface NetErrorContext {
  /** The URL asked for. */
  target: URL;
  /** The proxy the request went through: every dial then goes to it (Go says `proxyconnect tcp: …`). */
  proxy?: URL;
  /** The client's deadline fired: before the response headers, or while reading the body. */
  timedOut?: 'headers' | 'body';
}

export interface NetErrorText {
  kind: NetErrorKind;
  /** Go's text after `Get "URL": `. */
  text: string;
}

type NodeNetError = Error & {
  code?: string;
  address?: string;
  port?: number;
  hostname?: string;
  host?: string;
  reason?: string;
  cert?: { subjectaltname?: string };
};

const TIMEOUT_TEXT = {
  headers: 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
  body: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
} as const;

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

/**
 * Go's url.Error: `Get "https://…": why` (methods spelt `Get`, `Post`, …). A password in the URL,
 * and in any URL the reason quotes, is printed as `xxxxx`.
 */
export function urlErrorMessage(method: string, url: string, text: string): string {
  return `${method.charAt(0)}${method.slice(1).toLowerCase()} "${redactedUrl(url)}": ${redactUrlsIn(text)}`;
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

/** fetch wraps the real failure: `TypeError: fetch failed` with the socket error as its cause. */
function innermost(err: unknown): NodeNetError {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error && e.message === 'fetch failed' && typeof e.cause === 'object' && e.cause !== null; depth++) e = e.cause;
  if (e instanceof Error) return e;
  if (typeof e === 'object' && e !== null) return Object.assign(new Error('message' in e && typeof e.message === 'string' ? e.message : ''), e);
  return new Error(typeof e === 'string' ? e : 'unknown error');
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** `host:port` as Go's net.JoinHostPort writes it (IPv6 in brackets). */
function joinHostPort(host: string, port: string | number): string {
  const h = host.replace(/^\[|\]$/g, '');
  return h.includes(':') ? `[${h}]:${port}` : `${h}:${port}`;
}

/** The address a dial went to: the socket error's own, else the proxy's (every dial goes there), else the target's. */
function dialAddress(e: NodeNetError, ctx: NetErrorContext): string {
  if (e.address !== undefined && e.port !== undefined) return joinHostPort(e.address, e.port);
  const to = ctx.proxy ?? ctx.target;
  return joinHostPort(to.hostname, defaultPort(to));
}

/** Go's x509.HostnameError, from Node's ERR_TLS_CERT_ALTNAME_INVALID. */
function hostnameError(e: NodeNetError): string {
  const host = e.host ?? '';
  if (!host) return `x509: ${e.reason ?? e.message}`;
  const isIp = /^[\d.]+$|:/.test(host);
  const valid = (e.cert?.subjectaltname ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => (isIp ? s.startsWith('IP Address:') : s.startsWith('DNS:')))
    .map((s) => s.slice(s.indexOf(':') + 1))
    .join(', ');
  if (valid === '') {
    return isIp
      ? `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`
      : `x509: certificate is not valid for any names, but wanted to match ${host}`;
  }
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

function tlsText(e: NodeNetError): string | undefined {
  const code = e.code ?? '';
  if (UNKNOWN_AUTHORITY.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: ${hostnameError(e)}`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(e.message)) return 'http: server gave HTTP response to HTTPS client';
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO') return `remote error: tls: ${firstLine(e).replace(/^.*?:\s*/, '')}`;
  return undefined;
}

/** Status texts a proxy answers CONNECT with (no node:http here: this module is in the start-up snapshot). */
const PROXY_STATUS_TEXT: Record<string, string> = {
  '400': 'Bad Request',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '407': 'Proxy Authentication Required',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
};

/** A proxy that answered CONNECT with something other than 200: Go reports the status text alone. */
function proxyRefusal(e: NodeNetError): string | undefined {
  const m = /^Bad response: (\d{3})$/.exec(e.message) ?? /^Proxy response \((\d{3})\) !== 200/.exec(e.message);
  if (!m?.[1]) return undefined;
  return PROXY_STATUS_TEXT[m[1]] ?? `${m[1]} status from the proxy`;
}

/**
 * Node's errno of a failed connect(2) in the words Go's syscall.Errno prints (`connect: <this>`).
 * ETIMEDOUT is the kernel giving up; a dial that Go's own deadline ends is `i/o timeout` instead.
 */
export const CONNECT_ERRNO_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  EADDRNOTAVAIL: 'cannot assign requested address',
  ETIMEDOUT: 'connection timed out',
};

function dialText(e: NodeNetError, ctx: NetErrorContext): string | undefined {
  const code = e.code ?? '';
  const lookupHost = e.hostname ?? (ctx.proxy ?? ctx.target).hostname;
  switch (code) {
    case 'ENOTFOUND':
      return `dial tcp: lookup ${lookupHost}: no such host`;
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${lookupHost}: Temporary failure in name resolution`;
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `dial tcp ${dialAddress(e, ctx)}: connect: ${CONNECT_ERRNO_TEXT[code] ?? ''}`;
    case 'ETIMEDOUT':
      // The request's dial deadline (Go's dialer) ended it.
      return `dial tcp ${dialAddress(e, ctx)}: i/o timeout`;
    default:
      return undefined;
  }
}

/** Go's wording for a failed request to `ctx.target`. */
export function netErrorText(err: unknown, ctx: NetErrorContext): NetErrorText {
  const e = innermost(err);
  if (ctx.timedOut || e.name === 'TimeoutError') return { kind: 'timeout', text: TIMEOUT_TEXT[ctx.timedOut ?? 'headers'] };
  const dial = dialText(e, ctx);
  // With a proxy every dial is to the proxy, and Go marks it so.
  if (dial !== undefined) return { kind: 'unreachable', text: ctx.proxy ? `proxyconnect tcp: ${dial}` : dial };
  const tls = tlsText(e);
  if (tls !== undefined) return { kind: 'tls', text: tls };
  const refused = proxyRefusal(e);
  if (refused !== undefined) return { kind: 'unreachable', text: refused };
  if (e.code === 'ECONNRESET') return { kind: 'unreachable', text: e.message === 'socket hang up' ? 'EOF' : 'read: connection reset by peer' };
  if (e.message === 'bad port') {
    // Go dials any port; Node's fetch refuses the Fetch standard's "bad ports" (1, 22, 25, 6000, …) before connecting.
    return {
      kind: 'unreachable',
      text: `port ${defaultPort(ctx.target)} is one that Node's fetch refuses to connect to (a "bad port" of the Fetch standard); serve the file on another port`,
    };
  }
  return { kind: 'unreachable', text: firstLine(e) };
}
