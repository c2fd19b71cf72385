import type { Info } from 'kubernetes-types/version.js';
import type { KubeClient } from './kubeClient.js';
import { resourceType, type KubeObject, type ObjectOf, type ResourceRef, type ResourceType } from './resources.js';
import { objectMatcher, type Selectors } from './selectors.js';
import { PromiseMemo } from '../mesh/promiseMemo.js';

export interface SnapshotListOptions extends Selectors {
  /** Omit for all namespaces. */
  namespace?: string;
  /**
   * With a label selector, when no LIST of the resource (in this scope) is cached or the cached one
   * fails: LIST only the selected objects on the server (one request, cached under the selector).
   */
  selectOnServer?: boolean;
}

const ALL = '*';

function typeKey(t: ResourceType): string {
  return `${t.group}/${t.version}/${t.plural}`;
}

/**
 * One consistent-enough view of a cluster for one run (a `linkerd check`, say): each
 * (resource, namespace-scope) is LISTed at most once and the promise is shared, so
 * concurrent readers of N pods cost one request. Selectors and name lookups are
 * answered in memory. A namespaced read is served from an all-namespaces LIST when
 * one is already cached. Failed LISTs are not cached, so a retry asks again;
 * `invalidate` drops cached LISTs when a caller wants fresh state (e.g. between retries).
 */
export class ClusterSnapshot {
  private readonly lists = new PromiseMemo();
  private readonly memo = new PromiseMemo();

  constructor(readonly client: KubeClient) {}

  async list<R extends ResourceRef>(resource: R, options: SnapshotListOptions = {}): Promise<Array<ObjectOf<R>>> {
    const t = resourceType(resource);
    const namespace = t.namespaced ? options.namespace : undefined;
    const matches = objectMatcher(options);
    const selected = options.selectOnServer === true && options.labelSelector ? options.labelSelector : undefined;
    const items = await this.fetch(t, namespace, selected);
    return items.filter((o) => matches(o) && (namespace === undefined || o.metadata?.namespace === namespace)) as Array<ObjectOf<R>>;
  }

  /** The object with this name, or `undefined`; served from the LIST of its namespace (or of all). */
  async find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined> {
    const items = await this.list(resource, { namespace });
    return items.find((o) => (o as KubeObject).metadata?.name === name);
  }

  /** `GET /version`, once. */
  serverVersion(): Promise<Info> {
    return this.once('serverVersion', () => this.client.serverVersion());
  }

  /** Run `fn` once per key for the life of the snapshot (failures are not remembered). */
  once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.memo.get(key, fn);
  }

  /** Forget cached LISTs (of one resource, or all) and memoized values (when no resource is given). */
  invalidate(resource?: ResourceRef): void {
    if (resource === undefined) {
      this.lists.forget();
      this.memo.forget();
      return;
    }
    const prefix = `${typeKey(resourceType(resource))}|`;
    this.lists.forget((k) => k.startsWith(prefix));
  }

  private fetch(t: ResourceType, namespace: string | undefined, labelSelector?: string): Promise<KubeObject[]> {
    const tk = typeKey(t);
    const scope = `${tk}|${namespace ?? ALL}`;
    const whole = this.lists.peek<KubeObject[]>(`${tk}|${ALL}`) ?? (labelSelector === undefined ? undefined : this.lists.peek<KubeObject[]>(scope));
    if (labelSelector !== undefined) {
      const selected = () => this.lists.get(`${scope}|${labelSelector}`, () => this.client.list(t, { namespace, labelSelector }));
      // A LIST of everything (done or in flight) serves the selection; if it fails, the selected
      // LIST is asked for itself, so its failure names the request the caller meant.
      return whole ? whole.catch(selected) : selected();
    }
    return whole ?? this.lists.get(scope, () => this.client.list(t, { namespace }));
  }
}
