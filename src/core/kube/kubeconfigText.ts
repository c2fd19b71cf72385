import { firstLine } from '../errors.js';
import { loadYaml } from '../input/loadYaml.js';
import { KUBECONFIG_LIMIT, overLimitMessage } from '../input/limits.js';
import { type ConnectOptions, KubeClient } from './kubeClient.js';
import { kubeconfigEntries, kubeconfigTypes, resolveContext, type ResolvedKubeConfig } from './kubeconfig.js';
import { KubeError } from './kubeError.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, KubeTransport } from './transport.js';

/*
 * A kubeconfig held in memory (a Link's credentials Secret, another cluster's), not a file of
 * this machine: bounded in size, and refused when it names local files — a Secret someone else
 * wrote must not make us read this machine's keys or block on a FIFO. Exec plugins run, as they
 * would for client-go, under the same deadline and process-group rules as ours (execCredential.ts).
 */

/** kubeconfig keys that name files on the machine reading it. */
const FILE_KEYS: Readonly<Record<'clusters' | 'users', { entry: string; keys: readonly string[] }>> = {
  clusters: { entry: 'cluster', keys: ['certificate-authority'] },
  users: { entry: 'user', keys: ['client-certificate', 'client-key', 'token-file'] },
};

function fileReference(doc: Record<string, unknown>): string | undefined {
  for (const [list, { entry, keys }] of Object.entries(FILE_KEYS)) {
    const items = doc[list];
    if (!Array.isArray(items)) continue;
    for (const item of items as unknown[]) {
      const body = (item as Record<string, unknown> | null)?.[entry];
      if (typeof body !== 'object' || body === null) continue;
      for (const k of keys) {
        const v = (body as Record<string, unknown>)[k];
        const name = (item as { name?: unknown }).name;
        if (v !== undefined && v !== null && v !== '') return `${entry} ${typeof name === 'string' ? name : ''}: ${k}`;
      }
    }
  }
  return undefined;
}

/**
 * Parses and resolves a kubeconfig given as text (`source` names it in messages, e.g.
 * `secret linkerd-multicluster/cluster-credentials-east`); `context` replaces its current context.
 */
export async function resolveKubeconfigText(text: string, source: string, context?: string): Promise<ResolvedKubeConfig> {
  const refuse = (message: string, cause?: unknown) => new KubeError('config', `${source}: ${message}`, { cause });
  if (text.length > KUBECONFIG_LIMIT.bytes || Buffer.byteLength(text) > KUBECONFIG_LIMIT.bytes) throw refuse(overLimitMessage('kubeconfig', KUBECONFIG_LIMIT));
  const types = await kubeconfigTypes();
  let parsed: unknown;
  try {
    parsed = loadYaml(text) ?? {};
  } catch (e) {
    throw refuse(`unable to parse kubeconfig: ${firstLine(e)}`, e);
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const local = fileReference(parsed as Record<string, unknown>);
    if (local !== undefined) throw refuse(`a kubeconfig held in a Secret may not name files of this machine (${local})`);
  }
  let config;
  try {
    config = kubeconfigEntries(types, parsed);
  } catch (e) {
    throw refuse(`unable to parse kubeconfig: ${firstLine(e)}`, e);
  }
  try {
    return resolveContext(config, context);
  } catch (e) {
    throw refuse(firstLine(e), e);
  }
}

/** A client for the cluster a kubeconfig text names; nothing is sent yet. The caller closes it. */
export async function connectKubeconfigText(text: string, source: string, options: ConnectOptions & { context?: string } = {}): Promise<KubeClient> {
  const resolved = await resolveKubeconfigText(text, source, options.context);
  const transport = await KubeTransport.create(resolved, { asGroup: [] }, options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  transport.timeoutQuery = options.timeoutQuery === true;
  return new KubeClient(transport, resolved.contextName, resolved.namespace);
}
