import type http from 'node:http';
import type https from 'node:https';
import { readKubeFile, type ResolvedKubeConfig } from './kubeconfig.js';
import { PEM_LIMIT } from '../input/limits.js';
import { loadClientNode } from './clientNode.js';
import { execCredentialSource } from './execCredential.js';
import { firstLine } from '../errors.js';
import { KubeError } from './kubeError.js';

export type Headers = Record<string, string | string[]>;

/** A client certificate and its key, for TLS connections. */
export interface ClientTls {
  cert?: string | Buffer;
  key?: string | Buffer;
}

/** What one request is sent with. */
export interface RequestAuth {
  headers: Headers;
  /** The client certificate for the connection (a new one may need a new connection). */
  tls: ClientTls;
  /** The server answered 401 to this request: a plugin's credential is not used again (client-go). */
  rejected(): void;
}

/** Who we are to the API server: per-request auth, and (for proxies) an agent. */
export interface Credentials {
  /** Auth for the next request (exec plugins and auth providers may mint new tokens and certificates). */
  auth(): Promise<RequestAuth>;
  /** An agent client-node built for a `proxy-url` cluster; otherwise the transport makes its own. */
  proxyAgent?: http.Agent;
}

const ignore = (): void => undefined;

function read(file: string | undefined, data: string | undefined, what: string, owner: string): Buffer | undefined {
  if (file) {
    try {
      return readKubeFile(file, PEM_LIMIT);
    } catch (e) {
      throw new KubeError('config', `unable to read ${what} ${file} for ${owner} due to ${firstLine(e)}`, { cause: e });
    }
  }
  return data ? Buffer.from(data, 'base64') : undefined;
}

/** The cluster's CA bundle from `certificate-authority` or `certificate-authority-data`. */
export function clusterCa(cluster: ResolvedKubeConfig['cluster']): Buffer | undefined {
  return read(cluster.caFile, cluster.caData, 'certificate-authority', cluster.name);
}

function toHeaders(o: https.RequestOptions): Headers {
  const h: Headers = {};
  for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) h[k] = Array.isArray(v) ? v : String(v);
  if (o.auth) h.Authorization = `Basic ${Buffer.from(o.auth).toString('base64')}`;
  return h;
}

/**
 * Static credentials (token, basic auth, client certificate, kubeconfig `as:`) are read
 * directly; exec plugins, auth providers and proxies are delegated to client-node's
 * KubeConfig, loaded only then.
 */
export async function resolveCredentials(resolved: ResolvedKubeConfig, timeoutMs: number): Promise<Credentials> {
  const { cluster, context, contextName } = resolved;
  if (resolved.user.exec) {
    // Our runner, not client-node's: see execCredential.ts (deadline, process group, bounded output).
    const source = execCredentialSource(resolved.user.exec, { timeoutMs });
    await source.get();
    const rest = await resolveCredentials({ ...resolved, user: { ...resolved.user, exec: undefined } }, timeoutMs);
    return {
      ...rest,
      auth: async () => {
        const [credential, base] = await Promise.all([source.get(), rest.auth()]);
        return {
          headers: credential.token ? { ...base.headers, Authorization: `Bearer ${credential.token}` } : base.headers,
          // A certificate from the plugin (renewed with it when it expires) replaces the kubeconfig's.
          tls: credential.clientCertificateData ? { cert: credential.clientCertificateData, key: credential.clientKeyData } : base.tls,
          rejected: () => {
            source.rejected(credential);
          },
        };
      },
    };
  }
  const { user } = resolved;
  if (user.authProvider || cluster.proxyUrl) {
    const { KubeConfig } = await loadClientNode();
    const kc = new KubeConfig();
    kc.loadFromOptions({ clusters: [cluster], users: [user], contexts: [context], currentContext: contextName });
    const apply = async () => {
      const opts: https.RequestOptions = {};
      try {
        await kc.applyToHTTPSOptions(opts);
      } catch (e) {
        throw new KubeError('config', `invalid configuration: ${firstLine(e)}`, { cause: e });
      }
      return opts;
    };
    const first = await apply();
    const tls = { cert: first.cert as string | Buffer | undefined, key: first.key as string | Buffer | undefined };
    return {
      proxyAgent: cluster.proxyUrl ? (first.agent as http.Agent) : undefined,
      auth: async () => ({ headers: toHeaders(user.authProvider ? await apply() : first), tls, rejected: ignore }),
    };
  }
  const headers: Headers = {};
  if (user.token) headers.Authorization = `Bearer ${user.token.trim()}`;
  else if (user.username) headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`;
  if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
  const tls = { cert: read(user.certFile, user.certData, 'client-cert', user.name), key: read(user.keyFile, user.keyData, 'client-key', user.name) };
  return { auth: () => Promise.resolve({ headers, tls, rejected: ignore }) };
}
