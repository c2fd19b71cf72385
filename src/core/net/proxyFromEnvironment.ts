import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { networkContainsIp, parseCidr, type Network } from './cidr.js';
import { UserError } from '../errors.js';

/*
 * Which proxy an outbound request goes through, decided exactly as Go's net/http
 * ProxyFromEnvironment (golang.org/x/net/http/httpproxy) decides it for kubectl and the Go
 * linkerd CLI:
 * - HTTPS_PROXY serves https URLs, HTTP_PROXY http URLs (no fallback from one to the other);
 *   the upper-case name wins when both are set and non-empty; NO_PROXY likewise.
 * - A value without an http, https or socks5 scheme is read as `http://VALUE`; a value that is not
 *   a URL even then is ignored, as Go ignores it.
 * - `localhost` and loopback addresses are never proxied, whatever NO_PROXY says.
 * - NO_PROXY is a comma-separated list: `*` (nothing is proxied), an IP or CIDR, an IP with a
 *   port, a domain (`foo.com` matches foo.com and its subdomains; `.foo.com` and `*.foo.com`
 *   only subdomains), optionally with `:port`. Matching is case-insensitive.
 * - With REQUEST_METHOD set (a CGI handler), HTTP_PROXY is refused for http URLs.
 */

export interface ProxyEnvironment {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  /** REQUEST_METHOD is set: the process may be a CGI handler, whose HTTP_PROXY a client controls. */
  cgi: boolean;
}

/** The proxy for a URL, or undefined to connect directly. */
export type ProxyFunc = (target: URL) => URL | undefined;

function firstSet(env: NodeJS.ProcessEnv, ...names: string[]): string {
  for (const name of names) {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
  }
  return '';
}

export function proxyEnvironment(env: NodeJS.ProcessEnv = process.env): ProxyEnvironment {
  return {
    httpProxy: firstSet(env, 'HTTP_PROXY', 'http_proxy'),
    httpsProxy: firstSet(env, 'HTTPS_PROXY', 'https_proxy'),
    noProxy: firstSet(env, 'NO_PROXY', 'no_proxy'),
    cgi: (env.REQUEST_METHOD ?? '') !== '',
  };
}

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:']);

function tryUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** A proxy setting as a URL (`host:port` means `http://host:port`); undefined when unset or unusable. */
export function parseProxyUrl(value: string): URL | undefined {
  if (value === '') return undefined;
  const url = tryUrl(value);
  if (url && PROXY_SCHEMES.has(url.protocol) && url.host !== '') return url;
  const withScheme = tryUrl(`http://${value}`);
  return withScheme && withScheme.host !== '' ? withScheme : undefined;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'socks5:': '1080' };

/** A bare IP (brackets of an IPv6 URL host removed), or undefined for a name. */
function ipOf(host: string): string | undefined {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(h) === 0 ? undefined : h;
}

function singleAddress(ip: string): Network {
  return parseCidr(`${ip}/${isIP(ip) === 4 ? 32 : 128}`);
}

/** Loopback networks (computed when used: module state stays free of BigInts for the start-up snapshot). */
const loopback = (): Network[] => [parseCidr('127.0.0.0/8'), parseCidr('::1/128'), parseCidr('::ffff:127.0.0.0/104')];

interface Matcher {
  match(host: string, port: string, ip: string | undefined): boolean;
}

function ipMatcher(net: Network, port: string): Matcher {
  return { match: (_host, p, ip) => ip !== undefined && networkContainsIp(net, ip) && (port === '' || port === p) };
}

function domainMatcher(suffix: string, port: string, matchHost: boolean): Matcher {
  return { match: (host, p) => (host.endsWith(suffix) || (matchHost && host === suffix.slice(1))) && (port === '' || port === p) };
}

/** `host:port` / `[v6]:port` split as Go's net.SplitHostPort does it for NO_PROXY entries. */
function splitHostPort(s: string): { host: string; port: string } | undefined {
  const m = /^\[([^\]]*)\]:([^:]*)$/.exec(s) ?? /^([^:[\]]*):([^:]*)$/.exec(s);
  if (!m) return undefined;
  return { host: m[1] ?? '', port: m[2] ?? '' };
}

function cidrOf(entry: string): Network | undefined {
  if (!entry.includes('/')) return undefined;
  try {
    return parseCidr(entry);
  } catch {
    return undefined;
  }
}

/** Internationalised names compared in their ASCII (punycode) form, as Go's idna lookup gives it. */
function asciiName(name: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return name;
  const dot = name.startsWith('.') ? '.' : '';
  const ascii = domainToASCII(name.slice(dot.length));
  return ascii === '' ? name : dot + ascii;
}

/** NO_PROXY parsed into matchers; `all` when it holds `*`. */
function noProxyMatchers(noProxy: string): { all: boolean; ip: Matcher[]; domain: Matcher[] } {
  const ip: Matcher[] = [];
  const domain: Matcher[] = [];
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return { all: true, ip: [], domain: [] };
    const cidr = cidrOf(entry);
    if (cidr) {
      ip.push(ipMatcher(cidr, ''));
      continue;
    }
    const split = splitHostPort(entry);
    let host = split ? split.host : entry;
    const port = split ? split.port : '';
    if (split && host === '') continue;
    const addr = ipOf(host);
    if (addr !== undefined) {
      ip.push(ipMatcher(singleAddress(addr), port));
      continue;
    }
    if (host === '') continue;
    if (host.startsWith('*.')) host = host.slice(1);
    const matchHost = !host.startsWith('.');
    domain.push(domainMatcher(asciiName(matchHost ? `.${host}` : host), port, matchHost));
  }
  return { all: false, ip, domain };
}

/** Go's ProxyFunc over a parsed environment. */
export function proxyFunc(cfg: ProxyEnvironment): ProxyFunc {
  const httpProxy = parseProxyUrl(cfg.httpProxy);
  const httpsProxy = parseProxyUrl(cfg.httpsProxy);
  const noProxy = noProxyMatchers(cfg.noProxy);
  const useProxy = (target: URL): boolean => {
    const rawHost = target.hostname;
    const ip = ipOf(rawHost);
    const host = ip ?? asciiName(rawHost).toLowerCase();
    const port = target.port || (DEFAULT_PORTS[target.protocol] ?? '');
    if (host === 'localhost') return false;
    if (ip !== undefined && loopback().some((n) => networkContainsIp(n, ip))) return false;
    if (noProxy.all) return false;
    if (ip !== undefined && noProxy.ip.some((m) => m.match(host, port, ip))) return false;
    return !noProxy.domain.some((m) => m.match(host, port, ip));
  };
  return (target) => {
    let proxy: URL | undefined;
    if (target.protocol === 'https:') proxy = httpsProxy;
    else if (target.protocol === 'http:') {
      proxy = httpProxy;
      if (proxy && cfg.cgi) throw new UserError('refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy');
    }
    if (!proxy || !useProxy(target)) return undefined;
    return proxy;
  };
}

/** SOCKS5 from the environment is not supported here (a kubeconfig proxy-url may be SOCKS5, via client-node). */
export function refuseSocks(proxy: URL): void {
  if (proxy.protocol === 'socks5:') {
    throw new UserError(
      `proxy ${proxy.protocol}//${proxy.host}: SOCKS5 proxies are supported only as a kubeconfig cluster's proxy-url, not from HTTPS_PROXY/HTTP_PROXY`,
    );
  }
}

/** The proxy for `target` under this process's environment (read at each call, so tests may set it). */
export function proxyFromEnvironment(target: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  return proxyFunc(proxyEnvironment(env))(target);
}
