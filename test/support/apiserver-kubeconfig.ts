import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

export interface KubeconfigContext {
  name: string;
  server: string;
  /** PEM of the CA to trust; omitted → system roots. */
  caPem?: string;
  insecureSkipTlsVerify?: boolean;
  /** kubeconfig `tls-server-name`: the name to verify the server certificate against. */
  tlsServerName?: string;
  /** kubeconfig `proxy-url`: the proxy for this cluster, winning over HTTPS_PROXY. */
  proxyUrl?: string;
  token?: string;
  namespace?: string;
  /** kubeconfig `as:` (impersonate) for the user. */
  as?: string;
}

/** Write a kubeconfig with one cluster/user/context per entry; the first is current unless `current` says otherwise. */
export function writeKubeconfig(file: string, contexts: KubeconfigContext[], current = contexts[0]?.name): string {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: contexts.map((c) => ({
      name: `${c.name}-cluster`,
      cluster: {
        server: c.server,
        ...(c.caPem ? { 'certificate-authority-data': Buffer.from(c.caPem).toString('base64') } : {}),
        ...(c.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
        ...(c.tlsServerName ? { 'tls-server-name': c.tlsServerName } : {}),
        ...(c.proxyUrl ? { 'proxy-url': c.proxyUrl } : {}),
      },
    })),
    users: contexts.map((c) => ({
      name: `${c.name}-user`,
      user: { ...(c.token ? { token: c.token } : {}), ...(c.as ? { as: c.as } : {}) },
    })),
    contexts: contexts.map((c) => ({
      name: c.name,
      context: { cluster: `${c.name}-cluster`, user: `${c.name}-user`, ...(c.namespace ? { namespace: c.namespace } : {}) },
    })),
    'current-context': current ?? '',
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, yaml.dump(doc), { mode: 0o600 });
  return file;
}
