import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { SelfSubjectAccessReview } from 'kubernetes-types/authorization/v1.js';
import type { Info } from 'kubernetes-types/version.js';
import { loadKubeConfig, type KubeSelection } from './kubeconfig.js';
import { overLimitMessage } from '../input/limits.js';
import { isKubeError, isNotFound, KubeError } from './kubeError.js';
import { DOCUMENT_SCHEMAS, validateDocument, validateListPage, validateObject } from './objectSchemas.js';
import { objectMatcher } from './selectors.js';
import { createObjectRouter, type ObjectRouter } from './objectRouter.js';
import {
  apiVersionOf,
  collectionPath,
  objectPath,
  qualifiedName,
  resourceType,
  type KubeObject,
  type ObjectOf,
  type ResourceRef,
  type ResourceType,
} from './resources.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, KubeTransport, type StreamResponse } from './transport.js';

/** Pages one LIST may take: at linkerd's 500 objects a page, more than the response budget holds. */
export const MAX_LIST_PAGES = 1_000;

/** Why a listed object is not one the list asked for, or undefined when it is. */
function unlisted(
  o: KubeObject,
  t: ResourceType,
  apiVersion: string,
  namespace: string | undefined,
  selected: (o: KubeObject) => boolean,
  options: ListOptions,
): string | undefined {
  // `null` (and absent) kinds are the server omitting them, as it does for built-ins.
  if (typeof o.kind === 'string' && o.kind !== t.kind) return `listed as kind ${o.kind.slice(0, 63)}`;
  if (typeof o.apiVersion === 'string' && o.apiVersion !== apiVersion) return `listed as apiVersion ${o.apiVersion.slice(0, 63)}`;
  if (namespace !== undefined && o.metadata?.namespace !== namespace) return `not in namespace ${namespace}`;
  if (!selected(o)) return `does not match ${[options.labelSelector, options.fieldSelector].filter(Boolean).join(' and ')}`;
  return undefined;
}

/** A continue token, quoted and cut short for a message. */
function tokenText(token: string): string {
  return JSON.stringify(token.length > 40 ? `${token.slice(0, 40)}…` : token);
}

export interface ListOptions {
  /** Omit for all namespaces (ignored for cluster-scoped resources). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; pages are followed until the list is complete. Omit for one unpaged LIST. */
  limit?: number;
}

/** The attributes of a SelfSubjectAccessReview (`kubectl auth can-i <verb> <resource>`). */
export interface AccessReview {
  verb: string;
  resource: string;
  group?: string;
  version?: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export interface AccessReviewResult {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError?: string;
}

/** One resource type the server serves (subresources excluded). */
export interface ApiResource {
  group: string;
  version: string;
  /** Plural resource name, as in URLs. */
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
}

export interface ConnectOptions {
  /** Deadline for each request; linkerd's default is 30 s. */
  timeoutMs?: number;
  /** Put the timeout in each request's query (`?timeout=30s`), as client-go does for clients that have one. */
  timeoutQuery?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Typed, read-mostly access to one cluster. Every call is one or a few HTTP requests. */
export class KubeClient {
  private router?: ObjectRouter;
  /** What reads noticed and worked around (objects a list should not have held), for stderr. */
  readonly warnings: string[] = [];

  constructor(
    private readonly transport: KubeTransport,
    /** Name of the kubeconfig context in use. */
    readonly contextName: string,
    /** The context's namespace (`default` when unset). */
    readonly namespace: string,
  ) {}

  /** The API server's URL. */
  get server(): string {
    return this.transport.server.href.replace(/\/$/, '');
  }

  /** Requests sent so far by this client. */
  get requestCount(): number {
    return this.transport.requestCount;
  }

  get timeoutMs(): number {
    return this.transport.timeoutMs;
  }

  /** `GET /version`. */
  async serverVersion(): Promise<Info> {
    const info = await this.transport.json<unknown>({ method: 'GET', path: '/version' });
    return validateDocument(DOCUMENT_SCHEMAS.version, info, 'version', this.transport.urlOf('/version')) as unknown as Info;
  }

  async get<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R>> {
    const t = resourceType(resource);
    if (t.namespaced && !namespace) throw new Error(`get ${t.plural}/${name}: a namespace is required`);
    const path = objectPath(t, name, t.namespaced ? namespace : undefined);
    const obj = await this.transport.json<unknown>({ method: 'GET', path });
    return validateObject(t, obj, `${t.kind} ${namespace ? `${namespace}/` : ''}${name}`, this.transport.urlOf(path)) as ObjectOf<R>;
  }

  /** Like `get`, but `undefined` when the object does not exist. */
  async find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined> {
    try {
      return await this.get(resource, name, namespace);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /**
   * LIST a resource, following pages. Items are validated (objectSchemas.ts) and get the
   * `apiVersion`/`kind` that was asked for (the server omits them for built-ins). An item the
   * server should not have listed — another kind or version, another namespace, or not matching
   * the selectors — is dropped with a warning (`warnings`). Every page counts against the
   * response budget until the list is complete; a repeated continue token or more than
   * MAX_LIST_PAGES pages ends the read with an error naming the resource.
   */
  async list<R extends ResourceRef>(resource: R, options: ListOptions = {}): Promise<Array<ObjectOf<R>>> {
    const t = resourceType(resource);
    const namespace = t.namespaced ? options.namespace : undefined;
    const base = collectionPath(t, namespace);
    const apiVersion = apiVersionOf(t);
    const selected = objectMatcher(options);
    const what = `list of ${qualifiedName(t)}`;
    const items: KubeObject[] = [];
    const tokens = new Set<string>();
    const ignored: string[] = [];
    let held = 0;
    let pages = 0;
    let cont: string | undefined;
    try {
      do {
        if (++pages > MAX_LIST_PAGES)
          throw new KubeError('server', `${what}: more than ${MAX_LIST_PAGES.toLocaleString('en-US')} pages; refusing an endless list`);
        const q = new URLSearchParams();
        if (options.labelSelector) q.set('labelSelector', options.labelSelector);
        if (options.fieldSelector) q.set('fieldSelector', options.fieldSelector);
        if (options.limit) q.set('limit', String(options.limit));
        if (cont) q.set('continue', cont);
        const qs = q.toString();
        const path = qs ? `${base}?${qs}` : base;
        const url = this.transport.urlOf(path);
        const overBudget = () => new KubeError('server', `${what}: ${overLimitMessage(`${pages} pages`, this.transport.bodyLimit)}`, { method: 'GET', url });
        const { value, bytes } = await this.transport.jsonSized({ method: 'GET', path }).catch((e: unknown) => {
          // The earlier pages are what made this one too large: say so, of the list.
          throw held > 0 && isKubeError(e) && e.message.endsWith(overLimitMessage('response body', this.transport.bodyLimit)) ? overBudget() : e;
        });
        if (!this.transport.tryHold(bytes)) throw overBudget();
        held += bytes;
        const page = validateListPage(t, value, url);
        page.items.forEach((raw, i) => {
          const o = validateObject(t, raw, `item ${i} of the ${what}`, url);
          const why = unlisted(o, t, apiVersion, namespace, selected, options);
          if (why === undefined) items.push({ ...o, apiVersion, kind: t.kind });
          else ignored.push(`${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name ?? `item ${i}`} (${why})`);
        });
        cont = options.limit ? page.continueToken : undefined;
        if (cont !== undefined) {
          if (tokens.has(cont))
            throw new KubeError('server', `${what}: the server sent continue token ${tokenText(cont)} twice; refusing an endless list`, { method: 'GET', url });
          tokens.add(cont);
        }
      } while (cont);
    } finally {
      this.transport.release(held);
    }
    if (ignored.length > 0) {
      const shown = ignored.slice(0, 5).join(', ');
      const more = ignored.length > 5 ? ` and ${ignored.length - 5} more` : '';
      this.warnings.push(`ignored ${ignored.length} object(s) the API server put in the ${what} that do not belong there: ${shown}${more}`);
    }
    return items as Array<ObjectOf<R>>;
  }

  async selfSubjectAccessReview(review: AccessReview): Promise<AccessReviewResult> {
    const body: SelfSubjectAccessReview = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { ...review } },
    };
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const res = await this.transport.json<unknown>({ method: 'POST', path, body: JSON.stringify(body) });
    const s = validateDocument(DOCUMENT_SCHEMAS.accessReview, res, 'SelfSubjectAccessReview', this.transport.urlOf(path)).status;
    return { allowed: s?.allowed ?? false, denied: s?.denied ?? false, reason: s?.reason ?? '', evaluationError: s?.evaluationError ?? undefined };
  }

  /** Server-side dry-run create (`?dryRun=All`): the server validates and admits the object without storing it. */
  async dryRunCreate<T extends KubeObject>(obj: T): Promise<T & { metadata?: ObjectMeta }> {
    this.router ??= createObjectRouter(this.transport, this.namespace);
    const path = await this.router.createPath(obj);
    return this.transport.json<T & { metadata?: ObjectMeta }>({ method: 'POST', path: `${path}?dryRun=All`, body: JSON.stringify(obj) });
  }

  /**
   * Every resource type the server serves (legacy discovery: `/api`, `/apis`, then each
   * group version). Group versions whose discovery fails server-side (an unavailable
   * aggregated API) are skipped, as kubectl does.
   */
  async apiResources(): Promise<ApiResource[]> {
    const read = async (path: string) => ({ value: await this.transport.json<unknown>({ method: 'GET', path }), url: this.transport.urlOf(path) });
    const [api, apis] = await Promise.all([read('/api'), read('/apis')]);
    const core = validateDocument(DOCUMENT_SCHEMAS.coreVersions, api.value, 'API versions', api.url);
    const groups = validateDocument(DOCUMENT_SCHEMAS.groups, apis.value, 'API group list', apis.url);
    const gvs: Array<{ group: string; version: string; path: string }> = [
      ...core.versions.map((v) => ({ group: '', version: v, path: `/api/${v}` })),
      ...groups.groups.flatMap((g) => g.versions.map((v) => ({ group: g.name, version: v.version, path: `/apis/${v.groupVersion}` }))),
    ];
    const lists = await Promise.all(
      gvs.map(async (gv) => {
        try {
          return await this.resourcesOf(gv);
        } catch (e) {
          if (isKubeError(e, 'server') || isKubeError(e, 'notfound')) return [];
          throw e;
        }
      }),
    );
    return lists.flat();
  }

  /**
   * The resource types one group version serves (discovery of `/apis/<group>/<version>`, or
   * `/api/<version>` for the core group); its errors are the caller's (client-go's
   * ServerResourcesForGroupVersion).
   */
  groupVersionResources(group: string, version: string): Promise<ApiResource[]> {
    return this.resourcesOf({ group, version, path: group === '' ? `/api/${version}` : `/apis/${group}/${version}` });
  }

  private async resourcesOf(gv: { group: string; version: string; path: string }): Promise<ApiResource[]> {
    const list = validateDocument(
      DOCUMENT_SCHEMAS.resources,
      await this.transport.json<unknown>({ method: 'GET', path: gv.path }),
      `resource list of ${gv.path}`,
      this.transport.urlOf(gv.path),
    );
    return list.resources
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({
        group: gv.group,
        version: gv.version,
        name: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs ?? [],
        shortNames: r.shortNames ?? [],
      }));
  }

  /**
   * POST `body` to an API path whose answer is a stream (an aggregated API's watch, such as tap):
   * the status and headers, and the body unread and paused (transport.ts `openStream`).
   */
  postStream(
    path: string,
    body: Uint8Array,
    options: { contentType?: string; accept?: string; signal?: AbortSignal; headersTimeoutMs?: number | null } = {},
  ): Promise<StreamResponse> {
    return this.transport.openStream({
      method: 'POST',
      path,
      body,
      accept: options.accept,
      headersTimeoutMs: options.headersTimeoutMs,
      headers: options.contentType ? { 'Content-Type': options.contentType } : undefined,
      signal: options.signal,
    });
  }

  /** The URL, headers and agent of a WebSocket upgrade to an API path (see portForward.ts). */
  upgradeTarget(path: string): ReturnType<KubeTransport['upgradeTarget']> {
    return this.transport.upgradeTarget(path);
  }

  /** Close pooled connections. */
  close(): void {
    this.transport.close();
  }
}

/**
 * Build a client from the global flags: `--kubeconfig`/`$KUBECONFIG`, `--context`,
 * `--as`/`--as-group`. Nothing is sent yet; a bad kubeconfig fails here as a `KubeError`
 * of kind `config`.
 */
export async function connectKube(sel: KubeSelection, options: ConnectOptions = {}): Promise<KubeClient> {
  const resolved = await loadKubeConfig(sel, options.env);
  const transport = await KubeTransport.create(resolved, sel, options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  transport.timeoutQuery = options.timeoutQuery === true;
  return new KubeClient(transport, resolved.contextName, resolved.namespace);
}
