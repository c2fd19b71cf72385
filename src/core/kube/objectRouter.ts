import type { APIResourceList } from 'kubernetes-types/meta/v1.js';
import { KubeError, isKubeError } from './kubeError.js';
import type { KubeObject } from './resources.js';
import type { KubeTransport } from './transport.js';

/** Resolves any object's URL from its apiVersion/kind, using the server's discovery. */
export interface ObjectRouter {
  /** The collection path an object is created in (namespaced ones default to the context's namespace). */
  createPath(obj: KubeObject): Promise<string>;
}

/** `v1` → `/api/v1`, `apps/v1` → `/apis/apps/v1`: where a group version is served. */
function groupVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/**
 * apiVersion/kind → resource by discovery (GET of the group version's APIResourceList, once per
 * apiVersion and router), the mapping kubectl's RESTMapper makes, over the project's own transport
 * so timeouts, auth and error mapping stay in one place.
 */
export function createObjectRouter(transport: KubeTransport, defaultNamespace: string): ObjectRouter {
  const lists = new Map<string, Promise<APIResourceList | undefined>>();
  const discover = (apiVersion: string): Promise<APIResourceList | undefined> => {
    let list = lists.get(apiVersion);
    if (!list) {
      list = transport.json<APIResourceList>({ method: 'GET', path: groupVersionPath(apiVersion) }).catch((e: unknown) => {
        // An unserved group version is "no matches"; any other failure is reported, and retried next time.
        if (isKubeError(e, 'notfound')) return undefined;
        lists.delete(apiVersion);
        throw e;
      });
      lists.set(apiVersion, list);
    }
    return list;
  };

  return {
    async createPath(obj) {
      const apiVersion = obj.apiVersion || 'v1';
      const kind = obj.kind;
      if (!kind) throw new KubeError('invalid', `Object 'Kind' is missing in ${JSON.stringify(obj).slice(0, 200)}`);
      const list = await discover(apiVersion);
      // Subresources (`pods/status`) share their parent's kind; only the resource itself is created.
      const resource = list?.resources.find((r) => r.kind === kind && !r.name.includes('/'));
      if (!resource) throw new KubeError('notfound', `no matches for kind "${kind}" in version "${apiVersion}"`);
      const base = groupVersionPath(apiVersion);
      if (!resource.namespaced) return `${base}/${resource.name}`;
      const namespace = obj.metadata?.namespace || defaultNamespace;
      return `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`;
    },
  };
}
