import type { RequestContext, ResponseContext } from '@kubernetes/client-node';
import { KubeError, isKubeError } from './kubeError.js';
import { loadClientNode } from './clientNode.js';
import type { KubeObject } from './resources.js';
import { statusError, type HttpMethod, type KubeTransport } from './transport.js';

/** Resolves any object's URL from its apiVersion/kind, using the server's discovery. */
export interface ObjectRouter {
  /** The collection path an object is created in (namespaced ones default to the context's namespace). */
  createPath(obj: KubeObject): Promise<string>;
}

/** Carries a transport failure through client-node untouched (it rewrites `message` of errors it sees). */
class CarriedError extends Error {
  constructor(readonly carried: KubeError) {
    super(carried.message);
  }
}

/**
 * client-node's `KubernetesObjectApi` does the apiVersion/kind → resource mapping (with its
 * per-apiVersion discovery cache); its HTTP goes through our transport so timeouts, auth and
 * error mapping stay in one place. Bodies are sent by the client itself, raw, because the
 * library's serializer drops fields it does not model (e.g. `x-kubernetes-*` in CRD schemas).
 */
export async function createObjectRouter(transport: KubeTransport, defaultNamespace: string): Promise<ObjectRouter> {
  const k8s = await loadClientNode();
  const prefix = transport.urlOf('');

  const httpApi = {
    send(ctx: RequestContext) {
      const url = ctx.getUrl();
      const path = url.startsWith(prefix) ? url.slice(prefix.length) : new URL(url).pathname;
      const body = ctx.getBody();
      const p = transport
        .send({
          method: ctx.getHttpMethod() as HttpMethod,
          path,
          body: typeof body === 'string' ? body : undefined,
          headers: { ...ctx.getHeaders() },
        })
        .then((res): ResponseContext => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          return new k8s.ResponseContext(res.status, headers, {
            text: () => Promise.resolve(res.body),
            binary: () => Promise.resolve(Buffer.from(res.body)),
          });
        })
        .catch((e: unknown) => {
          throw isKubeError(e) ? new CarriedError(e) : e;
        });
      return new k8s.Observable(p);
    },
  };

  class Router extends k8s.KubernetesObjectApi {
    constructor() {
      super(
        k8s.createConfiguration({
          baseServer: new k8s.ServerConfiguration(prefix, {}),
          authMethods: {},
          httpApi,
        }),
      );
      this.defaultNamespace = defaultNamespace;
    }

    async createPath(obj: KubeObject): Promise<string> {
      const apiVersion = obj.apiVersion || 'v1';
      const kind = obj.kind;
      if (!kind) throw new KubeError('invalid', `Object 'Kind' is missing in ${JSON.stringify(obj).slice(0, 200)}`);
      const noMatch = () => new KubeError('notfound', `no matches for kind "${kind}" in version "${apiVersion}"`);
      // specUriPath fills in defaults on the object it is given, so give it a copy.
      const header = { apiVersion, kind, metadata: { name: obj.metadata?.name, namespace: obj.metadata?.namespace } };
      try {
        return await this.specUriPath(header, 'create');
      } catch (e) {
        if (e instanceof CarriedError) throw e.carried;
        if (e instanceof k8s.ApiException) {
          if (e.code === 404) throw noMatch();
          throw statusError('GET', transport.urlOf(this.apiVersionPath(apiVersion)), e.code, JSON.stringify(e.body ?? ''));
        }
        if (e instanceof Error && e.message.startsWith('Unrecognized API version and kind')) throw noMatch();
        throw e;
      }
    }
  }
  return new Router();
}
