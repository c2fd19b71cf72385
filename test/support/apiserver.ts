import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import type { GlobalOptions } from '../../src/cli/globals.js';
import { fieldValue, matchesLabelRequirements, parseFieldSelector, parseLabelSelector } from '../../src/core/kube/selectors.js';
import { createServingCertificates } from './apiserver-certs.js';
import { portForwardHandler, type PortForwardTarget } from './apiserver-portforward.js';
import { decodeSelfSubjectAccessReview, isKubeProtobuf, unwrapKubeProtobuf } from './apiserver-protobuf.js';
import { writeKubeconfig } from './apiserver-kubeconfig.js';
import { groupOrder, type ServedResource } from './apiserver-resources.js';
import { kubeTime, ObjectStore, parseYamlObjects, type StoredObject } from './apiserver-store.js';
import { renderTable, type IncludeObject } from './apiserver-table.js';

/**
 * A real Kubernetes API server for tests and benchmarks, on HTTPS 127.0.0.1 with a CA
 * generated at start and bearer-token auth. It serves discovery, GET/LIST (selectors,
 * pagination, Tables for kubectl), create (with server dry-run), replace, delete,
 * SelfSubjectAccessReview, and fault/latency knobs. kubectl 1.32 works against it.
 */

export { writeKubeconfig } from './apiserver-kubeconfig.js';
export type { StoredObject } from './apiserver-store.js';

/** An RBAC rule to deny, both in SelfSubjectAccessReviews and on real requests. Omitted fields match anything; `*` too. */
export interface Denial {
  verb: string;
  resource: string;
  group?: string;
  namespace?: string;
  name?: string;
  /** Only for this (possibly impersonated) user. */
  user?: string;
  /** `status.reason` of a denying SelfSubjectAccessReview. */
  reason?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without query. */
  path: string;
  /** Query string without `?` (may be empty). */
  query: string;
  /** The effective user (impersonated one when `Impersonate-User` was sent). */
  user: string;
  impersonateUser?: string;
  impersonateGroups: string[];
  accept?: string;
  /** The CN of the client certificate the connection presented, if it presented a valid one. */
  clientCert?: string;
}

/**
 * Which requests a fault hits: a string (`/api/v1/pods`, optionally `GET /api/v1/pods`) matches
 * that path and anything below it; a RegExp is tested against `METHOD path?query`.
 */
export type FaultMatcher = string | RegExp | ((r: RecordedRequest) => boolean);

/** A Status answer, a request that never gets an answer, or a connection reset. */
export type Fault = { status: number; message: string; reason?: string } | 'hang' | 'reset';

export interface ApiServerOptions {
  /** Objects to serve (CRDs are loaded first, whatever the order). */
  objects?: object[];
  /** Multi-document YAML text, or paths of YAML files (e.g. `fixtures/clusters/pods.yaml`). */
  fromYaml?: string | string[];
  /** `gitVersion` of `/version`. */
  version?: string;
  latencyMs?: number;
  denials?: Denial[];
  /** Bearer token to require (random by default). */
  token?: string;
  /** The user the token authenticates as. */
  user?: string;
  /**
   * Also authenticate by client certificate: a connection presenting one signed by the server's CA
   * (see `issueClientCertificate`) needs no token.
   */
  clientCertificates?: boolean;
  /** Answer kubectl's Table requests with Tables (default) or with plain JSON. */
  tables?: boolean;
  /** The server's clock (ages, creation timestamps, `${now}` placeholders). */
  now?: () => Date;
  /** Where pods' ports are served, for the port-forward endpoint (WebSocket, v4.channel.k8s.io). */
  portForward?: PortForwardTarget;
  /** What answers the tap APIService (`POST /apis/tap.linkerd.io/v1alpha1/watch/…/tap`); 503 without one. */
  tap?: TapHandler;
}

/** A tap request as the aggregated APIService receives it. */
export interface TapCall {
  /** The path below `/apis/tap.linkerd.io/v1alpha1/watch/`, e.g. `namespaces/emojivoto/deployments/web/tap`. */
  resourcePath: string;
  /** The raw body: a protobuf TapByResourceRequest. */
  body: Buffer;
  user: string;
}

/**
 * Answers one tap call: write frames to `res` (status, headers, body) as the tap server would.
 * The response is the test's to end (a finished stream) or to leave open (a live one).
 */
export type TapHandler = (call: TapCall, res: ServerResponse) => void | Promise<void>;

export interface ApiServer {
  url: string;
  port: number;
  caPem: string;
  token: string;
  /** A client certificate the server accepts (with `clientCertificates`), for user `commonName`. */
  issueClientCertificate(commonName: string): Promise<{ certPem: string; keyPem: string }>;
  /** A kubeconfig (context `test`) for this server, in a temp dir removed by `stop`. */
  kubeconfigPath: string;
  /** The temp dir holding the kubeconfig; handy for a kubectl `--cache-dir`. */
  dir: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  requestCount(): number;
  /** Forget recorded requests. */
  resetRequests(): void;
  setLatency(ms: number): void;
  /** Make matching requests fail; `times` limits how often. Returns a function that removes the fault. */
  setFault(matcher: FaultMatcher, fault: Fault, opts?: { times?: number }): () => void;
  clearFaults(): void;
  setDenials(denials: Denial[]): void;
  /** Add or replace objects. */
  put(...objects: object[]): void;
  /** Remove an object; `true` if it existed. */
  remove(apiVersion: string, kind: string, name: string, namespace?: string): boolean;
  /** Where pods' ports are served for port-forward. */
  setPortForward(target: PortForwardTarget | undefined): void;
  /** What answers the tap APIService. */
  setTap(handler: TapHandler | undefined): void;
  /** Stored objects of a kind (in a namespace, or all). */
  objects(apiVersion: string, kind: string, namespace?: string): StoredObject[];
  stop(): Promise<void>;
}

const JSON_TYPE = 'application/json';

function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'AlreadyExists',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

class HttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason = REASONS[code] ?? 'Unknown',
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const qualified = (r: ServedResource) => (r.group === '' ? r.plural : `${r.plural}.${r.group}`);
const apiVersionOf = (r: { group: string; version: string }) => (r.group === '' ? r.version : `${r.group}/${r.version}`);

/** Fields each kind supports in field selectors (beyond metadata.name / metadata.namespace). */
const FIELD_LABELS: Record<string, string[]> = {
  '/Pod': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  '/Secret': ['type'],
  '/Namespace': ['status.phase'],
  '/Node': ['spec.unschedulable'],
  '/Event': ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'reason', 'type', 'source'],
  'apps/ReplicaSet': ['status.replicas'],
  'batch/Job': ['status.successful'],
};

function tableVersion(accept: string | undefined): string | undefined {
  for (const part of (accept ?? '').split(',')) {
    const [, ...params] = part.split(';').map((s) => s.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=').map((s) => s.trim())));
    if (p.as === 'Table' && p.g === 'meta.k8s.io' && (p.v === 'v1' || p.v === 'v1beta1')) return `meta.k8s.io/${p.v}`;
  }
  return undefined;
}

/** Only aggregated discovery acceptable (no plain JSON fallback): 406, like a server without it. */
function onlyAggregatedDiscovery(accept: string | undefined): boolean {
  if (!accept) return false;
  const parts = accept.split(',').map((s) => s.trim());
  return parts.length > 0 && parts.every((p) => p.includes('as=APIGroupDiscoveryList'));
}

function pathMatches(matcher: string, r: RecordedRequest): boolean {
  const m = matcher.match(/^([A-Z]+)\s+(\S+)$/);
  const [method, prefix] = m ? [m[1], m[2]] : [undefined, matcher];
  if (method && method !== r.method) return false;
  return r.path === prefix || r.path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const now = opts.now ?? (() => new Date());
  const store = new ObjectStore(now);
  const loaded: StoredObject[] = [...((opts.objects ?? []) as StoredObject[])];
  for (const src of typeof opts.fromYaml === 'string' ? [opts.fromYaml] : (opts.fromYaml ?? [])) loaded.push(...parseYamlObjects(src));
  store.putAll(loaded);

  const token = opts.token ?? randomBytes(16).toString('hex');
  const baseUser = opts.user ?? 'kubernetes-admin';
  const gitVersion = opts.version ?? 'v1.34.1';
  const tables = opts.tables ?? true;
  let latencyMs = opts.latencyMs ?? 0;
  let denials = [...(opts.denials ?? [])];
  const faults: Array<{ matcher: FaultMatcher; fault: Fault; remaining: number }> = [];
  const requests: RecordedRequest[] = [];
  let total = 0;
  const sockets = new Set<Socket>();
  let port = 0;

  const isDenied = (attrs: { verb: string; group: string; resource: string; namespace?: string; name?: string }, user: string): Denial | undefined =>
    denials.find(
      (d) =>
        (d.verb === '*' || d.verb === attrs.verb) &&
        (d.resource === '*' || d.resource === attrs.resource) &&
        (d.group === undefined || d.group === '*' || d.group === attrs.group) &&
        (d.namespace === undefined || d.namespace === (attrs.namespace ?? '')) &&
        (d.name === undefined || d.name === attrs.name) &&
        (d.user === undefined || d.user === user),
    );

  const forbid = (verb: string, res: ServedResource, user: string, namespace?: string, name?: string): HttpError => {
    const subject = name ? `${qualified(res)} "${name}"` : qualified(res);
    const where = res.namespaced && namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
    return new HttpError(
      403,
      `${subject} is forbidden: User "${user}" cannot ${verb} resource "${res.plural}" in API group "${res.group}" ${where}`,
      'Forbidden',
      { ...(name ? { name } : {}), ...(res.group ? { group: res.group } : {}), kind: res.plural },
    );
  };

  const notFound = (res: ServedResource, name: string) =>
    new HttpError(404, `${qualified(res)} "${name}" not found`, 'NotFound', { name, ...(res.group ? { group: res.group } : {}), kind: res.plural });

  const served = () => store.served();

  function discovery(segments: string[], accept: string | undefined): unknown {
    if (segments.length > 3 || (segments[0] === 'api' && segments.length > 2)) return undefined;
    if ((segments.length === 1 || (segments[0] === 'apis' && segments.length === 1)) && onlyAggregatedDiscovery(accept)) {
      throw new HttpError(406, 'only application/json is served for discovery', 'NotAcceptable');
    }
    const resourceList = (group: string, version: string) => {
      const resources = served().filter((r) => r.group === group && r.version === version);
      if (resources.length === 0) return undefined;
      return {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: apiVersionOf({ group, version }),
        resources: resources.map((r) => ({
          name: r.plural,
          singularName: r.singular,
          namespaced: r.namespaced,
          kind: r.kind,
          verbs: r.verbs,
          ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
          ...(r.categories.length ? { categories: r.categories } : {}),
        })),
      };
    };
    const groupInfo = (g: { name: string; versions: string[] }) => ({
      name: g.name,
      versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${g.name}/${g.versions[0]}`, version: g.versions[0] },
    });
    if (segments[0] === 'api') {
      if (segments.length === 1)
        return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${port}` }] };
      return resourceList('', segments[1]);
    }
    const groups = groupOrder(served());
    if (segments.length === 1) return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(groupInfo) };
    const g = groups.find((x) => x.name === segments[1]);
    if (!g) return undefined;
    if (segments.length === 2) return { kind: 'APIGroup', apiVersion: 'v1', ...groupInfo(g) };
    return resourceList(segments[1], segments[2]);
  }

  function present(res: ServedResource, o: StoredObject): StoredObject {
    return { ...o, apiVersion: apiVersionOf(res), kind: res.kind };
  }

  function listObjects(res: ServedResource, namespace: string | undefined, q: URLSearchParams) {
    let items = store.list(res, namespace);
    const ls = q.get('labelSelector');
    if (ls) {
      let reqs;
      try {
        reqs = parseLabelSelector(ls);
      } catch (e) {
        throw new HttpError(400, (e as Error).message);
      }
      items = items.filter((o) => matchesLabelRequirements(reqs, o.metadata.labels));
    }
    const fs_ = q.get('fieldSelector');
    if (fs_) {
      let reqs;
      try {
        reqs = parseFieldSelector(fs_);
      } catch (e) {
        throw new HttpError(400, (e as Error).message);
      }
      const allowed = ['metadata.name', 'metadata.namespace', ...(FIELD_LABELS[`${res.group}/${res.kind}`] ?? [])];
      for (const r of reqs) if (!allowed.includes(r.field)) throw new HttpError(400, `field label not supported: ${r.field}`);
      items = items.filter((o) => reqs.every((r) => (fieldValue(o, r.field) === r.value) === (r.op === 'eq')));
    }
    const rv = String(store.resourceVersion);
    let offset = 0;
    const cont = q.get('continue');
    if (cont) {
      try {
        offset = JSON.parse(Buffer.from(cont, 'base64url').toString('utf8')).o;
      } catch {
        throw new HttpError(400, 'continue key is not valid: illegal base64 data');
      }
    }
    const limit = Number(q.get('limit') ?? 0);
    let next: string | undefined;
    let remaining: number | undefined;
    if (limit > 0 || offset > 0) {
      const end = limit > 0 ? offset + limit : items.length;
      if (end < items.length) {
        next = Buffer.from(JSON.stringify({ o: end, rv })).toString('base64url');
        remaining = items.length - end;
      }
      items = items.slice(offset, end);
    }
    return { items, rv, next, remaining };
  }

  async function readBody(req: IncomingMessage): Promise<StoredObject> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const buf = Buffer.concat(chunks);
    if (isKubeProtobuf(buf)) {
      const { kind, raw } = unwrapKubeProtobuf(buf);
      if (kind === 'SelfSubjectAccessReview') return decodeSelfSubjectAccessReview(raw) as StoredObject;
      throw new HttpError(415, `the test API server cannot decode protobuf ${kind}; send JSON`, 'UnsupportedMediaType');
    }
    const text = buf.toString('utf8');
    try {
      return JSON.parse(text) as StoredObject;
    } catch {
      try {
        return yaml.load(text) as StoredObject;
      } catch (e) {
        throw new HttpError(400, `the body of the request was in an unknown format: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  }

  function selfSubjectAccessReview(body: any, user: string) {
    const a = body?.spec?.resourceAttributes;
    let allowed = true;
    let reason = '';
    if (a) {
      const d = isDenied({ verb: a.verb ?? '', group: a.group ?? '', resource: a.resource ?? '', namespace: a.namespace, name: a.name }, user);
      if (d) {
        allowed = false;
        reason = d.reason ?? '';
      }
    }
    return {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: body?.spec ?? {},
      status: { allowed, ...(reason ? { reason } : {}) },
    };
  }

  async function route(req: IncomingMessage, rec: RecordedRequest, q: URLSearchParams): Promise<{ code: number; body: unknown }> {
    const segments = rec.path
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
    const method = rec.method;
    if (rec.path === '/version' && method === 'GET') {
      const m = gitVersion.match(/^v(\d+)\.(\d+)/);
      return {
        code: 200,
        body: {
          major: m?.[1] ?? '1',
          minor: m?.[2] ?? '0',
          gitVersion,
          gitCommit: '0000000000000000000000000000000000000000',
          gitTreeState: 'clean',
          buildDate: '2025-01-01T00:00:00Z',
          goVersion: 'go1.24.0',
          compiler: 'gc',
          platform: 'linux/amd64',
        },
      };
    }
    if (['/healthz', '/livez', '/readyz'].includes(rec.path)) return { code: 200, body: 'ok' };
    if (segments[0] !== 'api' && segments[0] !== 'apis') throw new HttpError(404, 'the server could not find the requested resource');

    const gvLen = segments[0] === 'api' ? 2 : 3;
    if (segments.length <= gvLen) {
      if (method !== 'GET') throw new HttpError(405, `the server does not allow this method on the requested resource`);
      const d = discovery(segments, rec.accept);
      if (d === undefined) throw new HttpError(404, 'the server could not find the requested resource');
      return { code: 200, body: d };
    }
    const group = segments[0] === 'api' ? '' : segments[1];
    const version = segments[gvLen - 1];
    const rest = segments.slice(gvLen);
    let namespace: string | undefined;
    let res: ServedResource | undefined;
    let name: string | undefined;
    let sub: string | undefined;
    const nsRes = rest[0] === 'namespaces' && rest.length >= 3 ? store.byPlural(group, version, rest[2]) : undefined;
    if (nsRes?.namespaced) {
      [namespace, res, name, sub] = [rest[1], nsRes, rest[3], rest[4]];
    } else {
      [res, name, sub] = [store.byPlural(group, version, rest[0]), rest[1], rest[2]];
      if (res?.namespaced && name !== undefined) res = undefined; // /api/v1/pods/<name> is not a thing
    }
    if (!res || (sub !== undefined && sub !== 'status')) throw new HttpError(404, 'the server could not find the requested resource');

    const user = rec.user;
    const table = tables ? tableVersion(rec.accept) : undefined;
    const includeObject = (q.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    const dryRun = q.get('dryRun');
    if (dryRun !== null && dryRun !== 'All') throw new HttpError(400, `Invalid dryRun value: ${dryRun}, supported values: [All]`);

    if (res.createOnly) {
      if (method !== 'POST') throw new HttpError(405, 'the server does not allow this method on the requested resource');
      const body = await readBody(req);
      if (res.kind === 'SelfSubjectAccessReview') return { code: 201, body: selfSubjectAccessReview(body, user) };
      return { code: 201, body: { ...body, status: { allowed: true } } };
    }

    const authorize = (verb: string) => {
      if (isDenied({ verb, group: res.group, resource: res.plural, namespace, name }, user)) throw forbid(verb, res, user, namespace, name);
    };

    if (method === 'GET' && name === undefined) {
      if (q.get('watch') === 'true' || q.get('watch') === '1') throw new HttpError(405, 'watch is not supported by the test API server', 'MethodNotAllowed');
      authorize('list');
      const { items, rv, next, remaining } = listObjects(res, namespace, q);
      if (table)
        return {
          code: 200,
          body: renderTable(
            res,
            items.map((o) => present(res, o)),
            { apiVersion: table, resourceVersion: rv, includeObject, now: now(), cont: next },
          ),
        };
      const custom = ![
        '',
        'apps',
        'batch',
        'policy',
        'rbac.authorization.k8s.io',
        'admissionregistration.k8s.io',
        'apiextensions.k8s.io',
        'apiregistration.k8s.io',
        'discovery.k8s.io',
        'coordination.k8s.io',
        'networking.k8s.io',
      ].includes(res.group);
      return {
        code: 200,
        body: {
          kind: `${res.kind}List`,
          apiVersion: apiVersionOf(res),
          metadata: { resourceVersion: rv, ...(next ? { continue: next, remainingItemCount: remaining } : {}) },
          // Like the real server: items of built-in lists carry no apiVersion/kind.
          items: items.map((o) => {
            if (custom) return present(res, o);
            const { apiVersion: _a, kind: _k, ...restOfObject } = o;
            return restOfObject;
          }),
        },
      };
    }
    if (method === 'GET') {
      authorize('get');
      const o = store.get(res, namespace, name);
      if (!o) throw notFound(res, name);
      const shown = present(res, o);
      if (table)
        return { code: 200, body: renderTable(res, [shown], { apiVersion: table, resourceVersion: String(store.resourceVersion), includeObject, now: now() }) };
      return { code: 200, body: shown };
    }
    if (method === 'POST' && name === undefined) {
      authorize('create');
      const body = await readBody(req);
      if (!body || typeof body !== 'object') throw new HttpError(400, 'the body of the request was empty');
      if (body.kind !== res.kind || (body.apiVersion && body.apiVersion !== apiVersionOf(res)))
        throw new HttpError(400, `the API version in the data (${body.apiVersion}) does not match the expected API version (${apiVersionOf(res)})`);
      const metaNs = body.metadata?.namespace;
      if (res.namespaced && metaNs && metaNs !== namespace)
        throw new HttpError(400, 'the namespace of the provided object does not match the namespace sent on the request');
      if (!body.metadata?.name && !body.metadata?.generateName)
        throw new HttpError(422, `${res.kind} "" is invalid: metadata.name: Required value: name or generateName is required`, 'Invalid');
      const nsType = store.byPlural('', 'v1', 'namespaces')!;
      if (res.namespaced && !store.get(nsType, undefined, namespace!)) throw notFound(nsType, namespace!);
      if (body.metadata.name && store.get(res, namespace, body.metadata.name)) {
        throw new HttpError(409, `${qualified(res)} "${body.metadata.name}" already exists`, 'AlreadyExists', {
          name: body.metadata.name,
          ...(res.group ? { group: res.group } : {}),
          kind: res.plural,
        });
      }
      const obj = { ...body, apiVersion: apiVersionOf(res), kind: res.kind };
      const created = dryRun === 'All' ? store.normalize(res, obj, namespace) : store.put(obj, namespace);
      return { code: 201, body: created };
    }
    if (method === 'PUT' && name !== undefined) {
      authorize('update');
      const body = await readBody(req);
      if (!store.get(res, namespace, name)) throw notFound(res, name);
      const obj = { ...body, apiVersion: apiVersionOf(res), kind: res.kind, metadata: { ...(body.metadata ?? {}), name } };
      return { code: 200, body: dryRun === 'All' ? store.normalize(res, obj, namespace) : store.put(obj, namespace) };
    }
    if (method === 'DELETE' && name !== undefined) {
      authorize('delete');
      const o = store.get(res, namespace, name);
      if (!o) throw notFound(res, name);
      if (dryRun !== 'All') store.delete(res, namespace, name);
      return {
        code: 200,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, ...(res.group ? { group: res.group } : {}), kind: res.plural, uid: o.metadata.uid },
        },
      };
    }
    throw new HttpError(405, 'the server does not allow this method on the requested resource');
  }

  function send(res: ServerResponse, code: number, body: unknown) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(code, {
      'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : JSON_TYPE,
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-cache, private',
      'Audit-Id': randomBytes(8).toString('hex'),
    });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', 'https://127.0.0.1');
    const header = (n: string) => req.headers[n.toLowerCase()];
    const impersonateUser = header('Impersonate-User') as string | undefined;
    const rawGroups = header('Impersonate-Group');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.search.replace(/^\?/, ''),
      user: impersonateUser ?? baseUser,
      impersonateUser,
      impersonateGroups: rawGroups === undefined ? [] : Array.isArray(rawGroups) ? rawGroups : rawGroups.split(',').map((s) => s.trim()),
      accept: header('Accept') as string | undefined,
      clientCert: clientCertOf(req),
    };
    requests.push(rec);
    total++;
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));

    const target = `${rec.method} ${rec.path}${rec.query ? `?${rec.query}` : ''}`;
    const hit = faults.find((f) =>
      typeof f.matcher === 'string' ? pathMatches(f.matcher, rec) : f.matcher instanceof RegExp ? f.matcher.test(target) : f.matcher(rec),
    );
    if (hit) {
      if (--hit.remaining <= 0) faults.splice(faults.indexOf(hit), 1);
      if (hit.fault === 'hang') return; // the socket is destroyed by stop()
      if (hit.fault === 'reset') {
        req.socket.destroy();
        return;
      }
      const f = hit.fault;
      send(res, f.status, statusBody(f.status, f.reason ?? REASONS[f.status] ?? 'Unknown', f.message));
      return;
    }

    if (header('Authorization') !== `Bearer ${token}` && rec.clientCert === undefined) {
      send(res, 401, statusBody(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    const tapPrefix = '/apis/tap.linkerd.io/v1alpha1/watch/';
    if (rec.path.startsWith(tapPrefix) && rec.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (!tapHandler) {
        send(res, 503, statusBody(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'));
        return;
      }
      await tapHandler({ resourcePath: rec.path.slice(tapPrefix.length), body: Buffer.concat(chunks), user: rec.user }, res);
      return;
    }
    try {
      const { code, body } = await route(req, rec, u.searchParams);
      send(res, code, body);
    } catch (e) {
      if (e instanceof HttpError) send(res, e.code, statusBody(e.code, e.reason, e.message, e.details));
      else send(res, 500, statusBody(500, 'InternalError', `Internal error occurred: ${(e as Error).message}`));
    }
  }

  let forwardTarget = opts.portForward;
  let tapHandler = opts.tap;
  const forward = portForwardHandler({
    authorized: (req) => req.headers.authorization === `Bearer ${token}`,
    podExists: (namespace, pod) => {
      const pods = store.byPlural('', 'v1', 'pods');
      return pods !== undefined && store.get(pods, namespace, pod) !== undefined;
    },
    target: () => forwardTarget,
    record: (req) => {
      const u = new URL(req.url ?? '/', 'https://127.0.0.1');
      requests.push({ method: 'GET', path: u.pathname, query: u.search.replace(/^\?/, ''), user: baseUser, impersonateGroups: [], accept: undefined });
      total++;
    },
  });

  const certs = await createServingCertificates();
  const clientAuth = opts.clientCertificates ? { requestCert: true, rejectUnauthorized: false, ca: certs.caPem } : {};
  /** The CN of a valid client certificate on the request's connection. */
  const clientCertOf = (req: IncomingMessage): string | undefined => {
    const socket = req.socket;
    if (!opts.clientCertificates || !(socket instanceof TLSSocket) || !socket.authorized) return undefined;
    return /^CN=(.*)$/m.exec(socket.getPeerX509Certificate()?.subject ?? '')?.[1];
  };
  const server = https.createServer({ key: certs.keyPem, cert: certs.certPem, ...clientAuth }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, statusBody(500, 'InternalError', String(e)));
    });
  });
  server.on('upgrade', forward.upgrade);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const url = `https://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-apiserver-'));
  const kubeconfigPath = writeKubeconfig(path.join(dir, 'kubeconfig'), [{ name: 'test', server: url, caPem: certs.caPem, token }]);

  return {
    url,
    port,
    caPem: certs.caPem,
    token,
    issueClientCertificate: (commonName) => certs.issueClient(commonName),
    kubeconfigPath,
    dir,
    requests,
    requestCount: () => total,
    resetRequests: () => {
      requests.length = 0;
      total = 0;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setFault: (matcher, fault, o = {}) => {
      const entry = { matcher, fault, remaining: o.times ?? Infinity };
      faults.push(entry);
      return () => {
        const i = faults.indexOf(entry);
        if (i >= 0) faults.splice(i, 1);
      };
    },
    clearFaults: () => {
      faults.length = 0;
    },
    setDenials: (d) => {
      denials = [...d];
    },
    put: (...objects) => {
      store.putAll(objects as StoredObject[]);
    },
    remove: (apiVersion, kind, name, namespace) => {
      const res = store.byKind(apiVersion, kind);
      return res ? store.delete(res, namespace, name) !== undefined : false;
    },
    objects: (apiVersion, kind, namespace) => {
      const res = store.byKind(apiVersion, kind);
      return res ? store.list(res, namespace) : [];
    },
    setPortForward: (target) => {
      forwardTarget = target;
    },
    setTap: (handler) => {
      tapHandler = handler;
    },
    stop: async () => {
      forward.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { kubeTime };

/** Global CLI options pointing at a test server's kubeconfig (override any field). */
export function kubeGlobals(server: Pick<ApiServer, 'kubeconfigPath'>, extra: Partial<GlobalOptions> = {}): GlobalOptions {
  return {
    linkerdNamespace: 'linkerd',
    cniNamespace: 'linkerd-cni',
    kubeconfig: server.kubeconfigPath,
    asGroup: [],
    verbose: false,
    ...extra,
  };
}
