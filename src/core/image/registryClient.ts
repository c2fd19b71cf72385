import { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { netErrorText } from '../net/netErrorText.js';
import { outboundFetch } from '../net/outboundFetch.js';

/*
 * HTTP to one registry with docker's and containerd's credential rules: the Basic credentials and
 * a bearer token go only to the registry's own origin (scheme, host, port) after it challenged for
 * them, and the password otherwise only to the token realm that challenge named. A redirect or an
 * upload Location on another origin is followed without any. Nothing goes over plain HTTP except
 * to a loopback address with --insecure.
 */

const TIMEOUT_MS = 120_000;
const MAX_BODY = 1 << 20;
/** Go's http.Client stops after 10 redirects. */
const MAX_REDIRECTS = 10;
/** 307 and 308 keep the method and the body; 301-303 would turn an upload into a GET. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What an Authorization header value may hold (RFC 7230 visible characters; no CR, LF or space). */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

export interface RegistryRef {
  registry: string;
  repo: string;
}

export interface RequestInit {
  headers?: Record<string, string>;
  body?: Buffer;
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export async function drain(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

/** A response body as text, at most 1 MiB of it. */
export async function boundedText(res: Response): Promise<string> {
  if (!res.body) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  const body = Readable.fromWeb(res.body) as AsyncIterable<unknown> & Readable;
  for await (const chunk of body) {
    if (!(chunk instanceof Uint8Array)) continue;
    size += chunk.length;
    if (size > MAX_BODY) {
      body.destroy();
      break;
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

export class RegistryClient {
  /** `https://host:port` (or http on loopback with --insecure): the one origin credentials go to. */
  readonly origin: string;
  private authorization?: string;
  private readonly basic?: string;

  constructor(
    private readonly ref: RegistryRef,
    private readonly insecure: boolean,
    private readonly creds: { username: string; password: string } | undefined,
  ) {
    this.origin = new URL(`${insecure ? 'http' : 'https'}://${ref.registry}`).origin;
    if (creds) this.basic = Buffer.from(`${creds.username}:${creds.password}`).toString('base64');
  }

  /** The registry as the user named it, for messages. */
  get name(): string {
    return this.ref.registry;
  }

  /** A path on the registry, or a Location it sent (absolute or relative to the request that got it). */
  url(location: string, base?: string): URL {
    try {
      return new URL(location, base || this.origin);
    } catch {
      throw new UserError(`--push: ${this.ref.registry} sent a Location that is not a URL`);
    }
  }

  /** Refuses a URL this push may not contact: only https, or plain HTTP to loopback with --insecure. */
  private checkScheme(u: URL, what: string): void {
    if (u.protocol === 'https:') return;
    if (u.protocol === 'http:' && this.insecure && isLoopback(u.host)) return;
    throw new UserError(
      `--push: ${this.ref.registry} sent ${what} ${u.protocol}//${u.host}; only https is used (plain HTTP only to a loopback address with --insecure)`,
    );
  }

  private async send(method: string, url: URL, init: RequestInit): Promise<Response> {
    const headers = { ...init.headers };
    if (this.authorization && url.origin === this.origin) headers.authorization = this.authorization;
    const outbound = await outboundFetch(url);
    try {
      return await fetch(url, {
        method,
        headers,
        // A copy each time: a re-sent body (after a 401 or a 307) must not share a buffer fetch consumed.
        body: init.body ? new Uint8Array(init.body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...outbound.init,
      });
    } catch (e) {
      throw new UserError(`--push: ${method} ${url.origin}${url.pathname}: ${netErrorText(e, { target: url, proxy: outbound.proxy }).text}`);
    }
  }

  /** Sends a request, answering one challenge from the registry and following redirects by the rules above. */
  async request(method: string, location: string | URL, init: RequestInit = {}): Promise<Response> {
    let url = typeof location === 'string' ? this.url(location) : location;
    let challenged = false;
    for (let hops = 0; ;) {
      this.checkScheme(url, 'a request to');
      const res = await this.send(method, url, init);
      if (res.status === 401 && !challenged && url.origin === this.origin) {
        challenged = true;
        await drain(res);
        await this.authenticate(res.headers.get('www-authenticate') ?? '');
        continue;
      }
      if (!REDIRECTS.has(res.status)) return res;
      await drain(res);
      const target = res.headers.get('location');
      if (!target) throw new UserError(`--push: ${this.ref.registry} answered ${method} ${url.pathname} with ${res.status} and no Location`);
      if (res.status < 307 && method !== 'GET' && method !== 'HEAD')
        throw new UserError(
          `--push: ${this.ref.registry} answered ${method} ${url.pathname} with ${res.status}, which would drop the request's body; refusing`,
        );
      if (++hops > MAX_REDIRECTS) throw new UserError(`--push: ${this.ref.registry}: stopped after ${MAX_REDIRECTS} redirects`);
      url = this.url(target, url.href);
      this.checkScheme(url, 'a redirect to');
    }
  }

  private async authenticate(challenge: string): Promise<void> {
    const scheme = challenge.split(' ')[0]?.toLowerCase();
    if (scheme === 'basic') {
      if (!this.basic)
        throw new UserError(
          `--push: ${this.ref.registry} asks for a user and password (set LINKERD_REGISTRY_USERNAME and LINKERD_REGISTRY_PASSWORD, or log in with docker)`,
        );
      this.authorization = `Basic ${this.basic}`;
      return;
    }
    if (scheme !== 'bearer')
      throw new UserError(`--push: ${this.ref.registry} refused access (WWW-Authenticate: ${printable(challenge.slice(0, 100)) || 'none'})`);
    const params = new Map<string, string>();
    for (const m of challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g)) if (m[1] && m[2] !== undefined) params.set(m[1].toLowerCase(), m[2]);
    const realm = params.get('realm');
    if (!realm) throw new UserError(`--push: ${this.ref.registry}'s bearer challenge names no realm`);
    let u: URL;
    try {
      u = new URL(realm);
    } catch {
      throw new UserError(`--push: ${this.ref.registry}'s bearer challenge names a realm that is not a URL`);
    }
    this.checkScheme(u, 'a token realm at');
    if (params.get('service')) u.searchParams.set('service', params.get('service') ?? '');
    u.searchParams.set('scope', params.get('scope') ?? `repository:${this.ref.repo}:pull,push`);
    const outbound = await outboundFetch(u);
    const res = await fetch(u, {
      // The password goes to the realm the registry named, and nowhere it redirects.
      headers: this.basic ? { authorization: `Basic ${this.basic}` } : {},
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      ...outbound.init,
    }).catch((e: unknown) => {
      throw new UserError(`--push: token request to ${u.origin}: ${netErrorText(e, { target: u, proxy: outbound.proxy }).text}`);
    });
    if (REDIRECTS.has(res.status)) {
      await drain(res);
      throw new UserError(`--push: ${u.origin} (the token realm of ${this.ref.registry}) answered with a redirect; credentials are not sent on`);
    }
    const body = await boundedText(res);
    if (!res.ok) throw new UserError(`--push: ${u.origin} refused a token (${res.status})${this.creds ? '' : '; no credentials were given'}`);
    let doc: { token?: unknown; access_token?: unknown };
    try {
      doc = JSON.parse(body) as { token?: unknown; access_token?: unknown };
    } catch {
      throw new UserError(`--push: ${u.origin} answered the token request with something that is not JSON`);
    }
    const token = typeof doc.token === 'string' ? doc.token : typeof doc.access_token === 'string' ? doc.access_token : undefined;
    if (!token) throw new UserError(`--push: ${u.origin} answered without a token`);
    // Never echoed: a token is a secret, and one with CR/LF would be a header injection.
    if (!TOKEN_CHARS.test(token))
      throw new UserError(`--push: the token from ${u.origin} holds characters a header cannot carry (such as CR or LF); refusing it`);
    this.authorization = `Bearer ${token}`;
  }
}

/** A server's text made safe for one line of a terminal. */
export function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]+/g, ' ').trim();
}
