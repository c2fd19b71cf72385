import tls from 'node:tls';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { connectKube, type KubeClient } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { isNotFound } from '../kube/kubeError.js';
import { portForward } from '../kube/portForward.js';
import { proxyContainer } from '../mesh/proxyContainer.js';
import { x509 } from '../pki/index.js';
import { ADMIN_PORT_NAME } from '../mesh/names.js';
import { parseCertificateDer } from '../pki/parseCertificates.js';

export interface PodIdentityRequest {
  selection: KubeSelection;
  /** Omitted → the kubeconfig context's namespace, as the real CLI does. */
  namespace?: string;
  /** Pod names (optionally `pod/NAME`). */
  pods: readonly string[];
  selector?: string;
  timeoutMs?: number;
}

export interface PodCertificates {
  pod: string;
  /** The identity used as SNI. */
  identity: string;
  /** The proxy's non-CA certificates, leaf first. */
  certificates: x509.X509Certificate[];
}

const LOCAL_NAME_ENV = 'LINKERD2_PROXY_IDENTITY_LOCAL_NAME';

/** The proxy's identity: its LOCAL_NAME env with the service account and namespace filled in. */
function identityOf(pod: Pod, env: ReadonlyArray<{ name: string; value?: string }>): string {
  const template = env.find((e) => e.name === LOCAL_NAME_ENV)?.value ?? '';
  const vars: Record<string, string> = { _pod_sa: pod.spec?.serviceAccountName ?? 'default', _pod_ns: pod.metadata?.namespace ?? '' };
  return template.replace(/\$\(([A-Za-z0-9_]+)\)/g, (whole, name: string) => vars[name] ?? env.find((e) => e.name === name)?.value ?? whole);
}

function adminPortOf(pod: Pod): { port: number; identity: string } {
  const proxy = proxyContainer(pod);
  const port = proxy?.ports?.find((p) => p.name === ADMIN_PORT_NAME)?.containerPort;
  if (proxy === undefined || port === undefined) throw new UserError('failed to find linkerd-admin port in linkerd-proxy container for given pod spec');
  return { port, identity: identityOf(pod, proxy.env ?? []) };
}

async function podsOf(client: KubeClient, req: PodIdentityRequest & { namespace: string }): Promise<Pod[]> {
  if (req.selector !== undefined) return client.list('pods', { namespace: req.namespace, labelSelector: req.selector });
  return Promise.all(
    req.pods.map(async (arg) => {
      const name = arg.replace(/^pods?\//, '');
      try {
        return await client.get('pods', name, req.namespace);
      } catch (e) {
        if (isNotFound(e)) throw new UserError(`pods "${name}" not found in namespace ${req.namespace}`);
        throw e;
      }
    }),
  );
}

/** TLS-dials the proxy's admin port through a port-forward, with the pod's identity as SNI and no verification. */
async function peerCertificates(client: KubeClient, pod: Pod, port: number, identity: string, timeoutMs: number): Promise<x509.X509Certificate[]> {
  const stream = await portForward(client, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', port, timeoutMs);
  const socket = tls.connect({ socket: stream, servername: identity, rejectUnauthorized: false });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new UserError(`TLS handshake with ${pod.metadata?.name ?? ''} timed out`)), timeoutMs);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (e: Error) => {
        clearTimeout(timer);
        reject(e instanceof UserError ? e : new UserError(`TLS handshake with ${pod.metadata?.name ?? ''}: ${e.message}`));
      });
    });
    const out: x509.X509Certificate[] = [];
    // Node ends the chain with an empty object (no raw), or a self-issued certificate pointing at itself.
    let cert: Partial<tls.DetailedPeerCertificate> = socket.getPeerCertificate(true);
    const seen = new Set<string>();
    while (cert.raw !== undefined && cert.fingerprint256 !== undefined && !seen.has(cert.fingerprint256)) {
      seen.add(cert.fingerprint256);
      const parsed = parseCertificateDer(cert.raw);
      if (!parsed.ok) throw new UserError(`the certificate of pod ${pod.metadata?.name ?? ''}: ${parsed.reason}`);
      out.push(parsed.certificate);
      cert = cert.issuerCertificate ?? {};
    }
    return out.filter((c) => c.getExtension(x509.BasicConstraintsExtension)?.ca !== true);
  } finally {
    socket.destroy();
  }
}

/** `linkerd identity POD… | -l SELECTOR`: each pod's proxy certificate, fetched in order; the first failure stops. */
/** Usage mistakes, found before the cluster is asked anything. */
function checkOperands(req: PodIdentityRequest): void {
  if (req.selector !== undefined && req.pods.length > 0) throw new UserError('give pod names or --selector, not both');
  if (req.selector === undefined && req.pods.length === 0) throw new UserError('Provide the pod name argument or use the selector flag', { usage: true });
}

export async function podIdentities(req: PodIdentityRequest): Promise<PodCertificates[]> {
  checkOperands(req);
  const client = await connectKube(req.selection);
  try {
    const pods = await podsOf(client, { ...req, namespace: req.namespace ?? client.namespace });
    const results: PodCertificates[] = [];
    for (const pod of pods) {
      if (pod.status?.phase !== 'Running') throw new UserError(`pod not running: ${pod.metadata?.name ?? ''}`);
      const { port, identity } = adminPortOf(pod);
      const certificates = await peerCertificates(client, pod, port, identity, req.timeoutMs ?? client.timeoutMs);
      results.push({ pod: pod.metadata?.name ?? '', identity, certificates });
    }
    if (results.every((r) => r.certificates.length === 0)) {
      throw new UserError('Could not fetch Certificate. Ensure that the pod(s) are meshed by running `linkerd inject`');
    }
    return results;
  } finally {
    client.close();
  }
}
