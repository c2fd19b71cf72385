import type { CompletionContext } from '../kit/family.js';

/*
 * Where completion values come from: namespaces from the cluster (one LIST, short deadline — a
 * TAB must never hang), contexts from the kubeconfig, check ids and categories from the registry.
 * Any failure completes nothing. The core family declares them by name (src/families/core).
 */

/** A TAB waits this long for the API server at most. */
const CLUSTER_DEADLINE_MS = 1_500;

function withDeadline<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

export async function namespaces(ctx: CompletionContext): Promise<string[]> {
  const { connectKube } = await import('../../core/kube/kubeClient.js');
  const listed = (async () => {
    const client = await connectKube({ kubeconfig: ctx.kubeconfig, context: ctx.context, asGroup: [] }, { timeoutMs: CLUSTER_DEADLINE_MS });
    try {
      const list = await client.list('namespaces');
      return list.map((n) => n.metadata?.name ?? '').filter((n) => n !== '');
    } finally {
      client.close();
    }
  })();
  return withDeadline(listed, CLUSTER_DEADLINE_MS, []);
}

export async function contexts(ctx: CompletionContext): Promise<string[]> {
  const { loadKubeConfig } = await import('../../core/kube/kubeconfig.js');
  try {
    const resolved = await loadKubeConfig({ kubeconfig: ctx.kubeconfig, asGroup: [] });
    return resolved.config.contexts.map((c) => c.name);
  } catch {
    return [];
  }
}

export async function checkSelectors(): Promise<string[]> {
  const { ALL_CHECKS } = await import('../../core/check/index.js');
  const { CATEGORIES } = await import('../../core/check/categories.js');
  return [...ALL_CHECKS.map((c) => c.id), ...CATEGORIES.map((c) => c.id)];
}
