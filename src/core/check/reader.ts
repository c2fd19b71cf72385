import type { Info } from 'kubernetes-types/version.js';
import { ClusterSnapshot } from '../kube/clusterSnapshot.js';
import type { KubeClient } from '../kube/kubeClient.js';
import { resourceType, type KubeObject, type ObjectOf, type ResourceRef } from '../kube/resources.js';

export interface ReadOptions {
  /** Omit for all namespaces. */
  namespace?: string;
  labelSelector?: string;
  /**
   * With a label selector: when the snapshot holds no LIST of the resource yet, ask the server for
   * the selected objects alone (cached under that selector) instead of LISTing them all.
   */
  selectOnServer?: boolean;
}

/** How checks read the cluster. Checks say what they want; the reader decides how many requests that costs. */
export interface ClusterReader {
  list<R extends ResourceRef>(resource: R, options?: ReadOptions): Promise<Array<ObjectOf<R>>>;
  find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined>;
  serverVersion(): Promise<Info>;
}

/**
 * Resources that are always LISTed across all namespaces, once, and filtered in memory:
 * several checks read them in different namespaces and with different selectors, and
 * `check --proxy` at scale must not cost one request per namespace or per pod
 * (linkerd/linkerd2#6272). Secrets, ConfigMaps and the like stay namespaced: listing them
 * cluster-wide would read far more than needed and ask for far more RBAC.
 */
const CLUSTER_WIDE = new Set(['pods', 'services', 'endpoints', 'namespaces']);

const isWide = (resource: ResourceRef) => CLUSTER_WIDE.has(resourceType(resource).plural) && resourceType(resource).group === '';

/** One snapshot per run (and per retry round): one LIST per resource type, everything else in memory. */
export class SnapshotReader implements ClusterReader {
  private readonly snapshot: ClusterSnapshot;

  constructor(client: KubeClient) {
    this.snapshot = new ClusterSnapshot(client);
  }

  async list<R extends ResourceRef>(resource: R, options: ReadOptions = {}): Promise<Array<ObjectOf<R>>> {
    if (!isWide(resource) || options.namespace === undefined) return this.snapshot.list(resource, options);
    const all = await this.snapshot.list(resource, { labelSelector: options.labelSelector, selectOnServer: options.selectOnServer });
    return all.filter((o) => (o as KubeObject).metadata?.namespace === options.namespace);
  }

  async find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined> {
    if (!isWide(resource)) return this.snapshot.find(resource, name, namespace);
    const items = await this.list(resource, { namespace });
    return items.find((o) => (o as KubeObject).metadata?.name === name);
  }

  serverVersion(): Promise<Info> {
    return this.snapshot.serverVersion();
  }
}

/**
 * Every read is its own request, with server-side selectors and a GET per named object:
 * how the Go CLI reads. Used as the baseline of the benchmark, never by the CLI.
 */
export class DirectReader implements ClusterReader {
  constructor(private readonly client: KubeClient) {}

  list<R extends ResourceRef>(resource: R, options: ReadOptions = {}): Promise<Array<ObjectOf<R>>> {
    return this.client.list(resource, options);
  }

  find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined> {
    return this.client.find(resource, name, namespace);
  }

  serverVersion(): Promise<Info> {
    return this.client.serverVersion();
  }
}
