import http from 'node:http';
import https from 'node:https';
import { API_BODY_LIMIT, type InputLimit, overLimitMessage } from '../input/limits.js';
import { type ClientTls, clusterCa, type RequestAuth, resolveCredentials, type Headers } from './credentials.js';
import type { KubeSelection, ResolvedKubeConfig } from './kubeconfig.js';
import { firstLine } from '../errors.js';
import { JsonLimitError, parseJsonBounded } from '../input/boundedJson.js';
import { KubeError, type KubeErrorKind } from './kubeError.js';
import { netErrorText, urlErrorMessage } from '../net/netErrorText.js';
import { type OutboundAgent, outboundAgent } from '../net/outboundAgent.js';
import { recordRequest } from './requestLog.js';
import { redactedUrl } from '../net/redactedUrl.js';
import { formatGoDuration } from '../parse/goDuration.js';

/** linkerd's client timeout per request (`k8s.NewAPI(…, 30s)`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  /** Path and query, e.g. `/api/v1/pods?labelSelector=a%3Db`. */
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface TransportResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request whose answer is read as a stream (see `openStream`). */
export interface StreamRequest {
  method: HttpMethod;
  path: string;
  body?: Uint8Array;
  headers?: Record<string, string>;
  /** The Accept header (any type by default). */
  accept?: string;
  /** Aborting it tears the connection down, whether the answer has started or not. */
  signal?: AbortSignal;
  /**
   * Deadline for the response headers; the transport's timeout by default. `null` waits as long
   * as it takes (a tap whose server answers with its first event; the user ends it).
   */
  headersTimeoutMs?: number | null;
}

export interface StreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Paused; the reader pulls, and destroys it when it is done. */
  body: http.IncomingMessage;
  url: string;
}

/**
 * The one place that speaks HTTP to the API server: TLS and credentials from the
 * kubeconfig (via client-node), impersonation, keep-alive, the per-request deadline,
 * and the mapping of every failure to a one-line `KubeError`.
 */
export class KubeTransport {
  /** Number of requests sent (including failed ones). */
  requestCount = 0;
  /** Send client-go's `timeout=` query parameter (as a client with a request timeout does, e.g. check's). */
  timeoutQuery = false;
  /** Bytes of response bodies being read right now, across concurrent requests. */
  private buffered = 0;

  private constructor(
    readonly server: URL,
    /** The agent for a client certificate (a new one when an exec plugin renews it). */
    private readonly agents: AgentPool,
    private readonly auth: () => Promise<RequestAuth>,
    readonly timeoutMs: number,
    /** The proxy requests go through (kubeconfig proxy-url or the environment's), if any. */
    readonly proxy: URL | undefined,
    /** Largest response body read (API_BODY_LIMIT unless a caller asks for less). */
    readonly bodyLimit: InputLimit = API_BODY_LIMIT,
  ) {}

  static async create(resolved: ResolvedKubeConfig, sel: KubeSelection, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<KubeTransport> {
    const { cluster } = resolved;
    let server: URL;
    try {
      server = new URL(cluster.server);
    } catch (e) {
      throw new KubeError('config', `invalid configuration: host must be a URL or a host:port pair: "${redactedUrl(cluster.server)}"`, { cause: e });
    }
    const creds = await resolveCredentials(resolved, timeoutMs);
    // The kubeconfig's proxy-url wins (client-node builds that agent); else HTTPS_PROXY/NO_PROXY as client-go reads them.
    const proxyAgent = creds.proxyAgent;
    const agents = proxyAgent
      ? new AgentPool(() => ({ agent: proxyAgent, proxy: proxyUrlOf(cluster.proxyUrl) }))
      : new AgentPool((tls) =>
          outboundAgent(server, {
            keepAlive: true,
            maxSockets: 32,
            ca: clusterCa(cluster),
            cert: tls.cert,
            key: tls.key,
            rejectUnauthorized: !cluster.skipTLSVerify,
            servername: cluster.tlsServerName,
          }),
        );
    const first = await creds.auth();
    const { proxy } = agents.for(first.tls);
    // --as / --as-group override the kubeconfig's `as:`, as in client-go.
    const impersonation: Headers = {};
    if (sel.as) impersonation['Impersonate-User'] = sel.as;
    if (sel.asGroup.length) impersonation['Impersonate-Group'] = [...sel.asGroup];
    const auth = async (): Promise<RequestAuth> => {
      const a = await creds.auth();
      return { ...a, headers: { ...a.headers, ...impersonation } };
    };
    return new KubeTransport(server, agents, auth, timeoutMs, proxy);
  }

  /** The full URL of an API path, honouring a path prefix in the kubeconfig's server URL. */
  urlOf(path: string): string {
    const base = this.server.href.replace(/\/+$/, '');
    if (!this.timeoutQuery) return `${base}${path}`;
    const timeout = `timeout=${formatGoDuration(BigInt(this.timeoutMs) * 1_000_000n)}`;
    return `${base}${path}${path.includes('?') ? '&' : '?'}${timeout}`;
  }

  /** Send a request; network failures and the deadline throw, HTTP error statuses are returned. */
  async send(req: TransportRequest): Promise<TransportResponse> {
    const url = this.urlOf(req.path);
    const auth = await this.auth();
    const headers: Headers = { Accept: 'application/json', 'User-Agent': 'linkerd-ts', ...auth.headers, ...req.headers };
    if (req.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    this.requestCount++;
    const lib = this.server.protocol === 'https:' ? https : http;
    const started = performance.now();
    return new Promise<TransportResponse>((resolve, reject) => {
      let settled = false;
      let timedOut = false;
      let headersIn = false;
      const finish = (outcome: { err: unknown } | { res: TransportResponse }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const durationMs = Math.round(performance.now() - started);
        if ('res' in outcome) {
          recordRequest({ method: req.method, url, status: outcome.res.status, durationMs });
          if (outcome.res.status === 401) auth.rejected();
          resolve(outcome.res);
          return;
        }
        const failure =
          outcome.err instanceof KubeError
            ? outcome.err
            : networkError(outcome.err, req.method, url, timedOut ? (headersIn ? 'body' : 'headers') : undefined, this.proxy);
        recordRequest({ method: req.method, url, error: failure.message.replace(/^\w+ "[^"]*": /, ''), durationMs });
        reject(failure);
      };
      const request = lib.request(url, { method: req.method, agent: this.agents.for(auth.tls).agent, headers }, (res) => {
        headersIn = true;
        // Bounded while streaming (and before, by Content-Length): past the limit the answer is one line.
        const tooLarge = () => {
          const err = new KubeError('server', urlErrorMessage(req.method, url, overLimitMessage('response body', this.bodyLimit)), {
            method: req.method,
            url,
          });
          finish({ err });
          request.destroy();
        };
        if (Number(res.headers['content-length'] ?? 0) > this.bodyLimit.bytes) {
          tooLarge();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const release = () => {
          this.buffered -= size;
          size = 0;
        };
        res.on('data', (c: Buffer) => {
          if (settled) return;
          size += c.length;
          this.buffered += c.length;
          // The budget covers every response being read at once (check reads a dozen lists together).
          if (this.buffered > this.bodyLimit.bytes) {
            release();
            tooLarge();
          } else chunks.push(c);
        });
        res.on('close', release);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          release();
          finish({ res: { status: res.statusCode ?? 0, headers: res.headers, body } });
        });
        res.on('error', (err) => finish({ err }));
        res.on('aborted', () => finish({ err: new Error('unexpected EOF') }));
      });
      const timer = setTimeout(() => {
        timedOut = true;
        request.destroy(new Error('timeout'));
      }, this.timeoutMs);
      request.on('error', (err) => finish({ err }));
      request.end(req.body);
    });
  }

  /**
   * Send a request whose answer is a stream (a watch, tap): the deadline covers the connection and
   * the response headers only; the body is handed over unread, paused, for the caller to pull at
   * its own pace (backpressure) and to destroy when done. Network failures and the deadline throw.
   */
  async openStream(req: StreamRequest): Promise<StreamResponse> {
    const url = this.urlOf(req.path);
    const auth = await this.auth();
    const headers: Headers = { Accept: req.accept ?? '*/*', 'User-Agent': 'linkerd-ts', ...auth.headers, ...req.headers };
    if (req.body !== undefined) {
      headers['Content-Type'] ??= 'application/octet-stream';
      headers['Content-Length'] = String(req.body.byteLength);
    }
    this.requestCount++;
    const lib = this.server.protocol === 'https:' ? https : http;
    const started = performance.now();
    return new Promise<StreamResponse>((resolve, reject) => {
      let settled = false;
      const request = lib.request(url, { method: req.method, agent: this.agents.for(auth.tls).agent, headers }, (res) => {
        settled = true;
        clearTimeout(timer);
        res.pause();
        recordRequest({ method: req.method, url, status: res.statusCode ?? 0, durationMs: Math.round(performance.now() - started) });
        if (res.statusCode === 401) auth.rejected();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, url });
      });
      const fail = (err: unknown, timedOut?: 'headers') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const failure = networkError(err, req.method, url, timedOut, this.proxy);
        recordRequest({ method: req.method, url, error: failure.message.replace(/^\w+ "[^"]*": /, ''), durationMs: Math.round(performance.now() - started) });
        reject(failure);
      };
      const wait = req.headersTimeoutMs === undefined ? this.timeoutMs : req.headersTimeoutMs;
      const timer =
        wait === null
          ? undefined
          : setTimeout(() => {
              fail(new Error('timeout'), 'headers');
              request.destroy();
            }, wait);
      request.on('error', (err) => fail(err));
      if (req.signal) {
        if (req.signal.aborted) request.destroy(new Error('canceled'));
        else req.signal.addEventListener('abort', () => request.destroy(new Error('canceled')), { once: true });
      }
      request.end(req.body);
    });
  }

  /**
   * Send and decode a JSON answer; any non-2xx status becomes a `KubeError`. The request's
   * deadline covers decoding too, and the body is held to the tree limits (boundedJson.ts).
   */
  async json<T>(req: TransportRequest): Promise<T> {
    return (await this.jsonSized(req)).value as T;
  }

  /** Like `json`, with the size of the body read (list pages count it against the budget). */
  async jsonSized(req: TransportRequest): Promise<{ value: unknown; bytes: number }> {
    const deadline = performance.now() + this.timeoutMs;
    const res = await this.send(req);
    const url = this.urlOf(req.path);
    if (res.status < 200 || res.status > 299) throw statusError(req.method, url, res.status, res.body);
    try {
      return { value: parseJsonBounded(res.body, { deadline }), bytes: Buffer.byteLength(res.body) };
    } catch (e) {
      if (e instanceof JsonLimitError && e.why === 'deadline') throw networkError(e, req.method, url, 'body', this.proxy);
      const what = e instanceof JsonLimitError ? 'response body' : 'invalid JSON in response';
      throw new KubeError('server', urlErrorMessage(req.method, url, `${what}: ${firstLine(e)}`), {
        status: res.status,
        method: req.method,
        url,
        cause: e,
      });
    }
  }

  /**
   * Keep `bytes` of a response counted against the body limit until `release` (a list's pages,
   * held until the list is complete); false, holding nothing, when they do not fit.
   */
  tryHold(bytes: number): boolean {
    if (this.buffered + bytes > this.bodyLimit.bytes) return false;
    this.buffered += bytes;
    return true;
  }

  release(bytes: number): void {
    this.buffered -= bytes;
  }

  /**
   * What a WebSocket upgrade to `path` needs (port-forward, exec): its ws(s) URL, the auth
   * headers and the same TLS agent as every other request.
   */
  async upgradeTarget(path: string): Promise<{ url: string; headers: Headers; agent: http.Agent }> {
    this.requestCount++;
    const url = this.urlOf(path).replace(/^http/, 'ws');
    const auth = await this.auth();
    return { url, headers: { 'User-Agent': 'linkerd-ts', ...auth.headers }, agent: this.agents.for(auth.tls).agent };
  }

  /** Release pooled connections so the process can exit promptly. */
  close(): void {
    this.agents.close();
  }
}

/**
 * The agent for the current client certificate. A renewed certificate (an exec plugin's, past its
 * expirationTimestamp) gets a new agent, so new connections present it; the old agent's
 * connections finish what they carry and close with the transport.
 */
class AgentPool {
  private current: { tls: ClientTls; made: OutboundAgent } | undefined;
  private readonly all: http.Agent[] = [];

  constructor(private readonly make: (tls: ClientTls) => OutboundAgent) {}

  for(tls: ClientTls): OutboundAgent {
    const c = this.current;
    if (c && c.tls.cert === tls.cert && c.tls.key === tls.key) return c.made;
    const made = this.make(tls);
    this.current = { tls, made };
    if (!this.all.includes(made.agent)) this.all.push(made.agent);
    return made;
  }

  close(): void {
    for (const agent of this.all) agent.destroy();
  }
}

function proxyUrlOf(proxyUrl: string | undefined): URL | undefined {
  try {
    return proxyUrl ? new URL(proxyUrl) : undefined;
  } catch {
    return undefined;
  }
}

/** A Node socket/TLS failure in client-go's words (the wording lives in netErrorText). */
export function networkError(err: unknown, method: string, url: string, timedOut?: 'headers' | 'body', proxy?: URL): KubeError {
  const { kind, text } = netErrorText(err, { target: new URL(url), proxy, timedOut });
  return new KubeError(kind, urlErrorMessage(method, url, text), { method, url, cause: err });
}

const GENERIC_STATUS_MESSAGES: Record<number, string> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'Unauthorized',
  403: 'the server does not allow access to the requested resource',
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  409: 'the server reported a conflict',
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

function kindOfStatus(status: number, reason?: string): KubeErrorKind {
  if (reason === 'Timeout' || status === 504 || status === 408) return 'timeout';
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'notfound';
    case 409:
      return 'conflict';
    case 400:
    case 422:
      return 'invalid';
    default:
      return 'server';
  }
}

/** An HTTP error answer → `KubeError` with the Status message, as client-go reports it. */
export function statusError(method: string, url: string, status: number, body: string): KubeError {
  let message: string | undefined;
  let reason: string | undefined;
  try {
    const s = parseJsonBounded(body) as { kind?: string; message?: string; reason?: string } | null;
    if (s?.kind === 'Status') {
      message = s.message || undefined;
      reason = s.reason || undefined;
    }
  } catch {
    // not a Status: fall through to the generic text
  }
  if (!message) {
    const text = body.trim();
    message =
      GENERIC_STATUS_MESSAGES[status] ??
      `an error on the server (${JSON.stringify(text.length > 0 ? text : 'unknown')}) has prevented the request from succeeding`;
  }
  return new KubeError(kindOfStatus(status, reason), message, { status, reason, method, url });
}
