import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { readTextFileBounded } from '../input/boundedRead.js';
import { loadYaml } from '../input/loadYaml.js';
import { KUBECONFIG_LIMIT, PEM_LIMIT } from '../input/limits.js';
import { firstLine } from '../errors.js';
import { KubeError, NO_CONFIG } from './kubeError.js';
import { loadConfigTypes } from './clientNode.js';

/** Which cluster, and as whom: the kubeconfig file and context, and who to impersonate. */
export interface KubeSelection {
  /** A kubeconfig file instead of $KUBECONFIG or ~/.kube/config. */
  kubeconfig?: string;
  /** A context instead of the kubeconfig's current one. */
  context?: string;
  /** The user to impersonate. */
  as?: string;
  /** The groups to impersonate. */
  asGroup: string[];
}

/** A kubeconfig's entries, in client-node's model. */
export interface KubeConfigData {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string;
}

/** A kubeconfig resolved to one context: the cluster to talk to and who to be. */
export interface ResolvedKubeConfig {
  config: KubeConfigData;
  contextName: string;
  context: Context;
  cluster: Cluster;
  user: User;
  /** The context's namespace, `default` when unset (where namespaced objects without one go). */
  namespace: string;
}

const SERVICEACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

const configError = (message: string, cause?: unknown) => new KubeError('config', message, { cause });

/**
 * client-node's kubeconfig entry parsing (validation, token-file reading) without the rest
 * of the library: importing `@kubernetes/client-node` itself pulls in every generated API
 * model (~0.5 s), which only exotic auth and server dry-runs need.
 */
type ConfigTypes = typeof import('@kubernetes/client-node/dist/config_types.js');
let configTypes: ConfigTypes | undefined;

function absolute(dir: string, file: string | undefined): string | undefined {
  return file === undefined || path.isAbsolute(file) ? file : path.join(dir, file);
}

function loadFile(types: ConfigTypes, file: string): KubeConfigData {
  let text: string;
  try {
    text = readTextFileBounded(file, KUBECONFIG_LIMIT);
  } catch (e) {
    const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT') throw configError(`stat ${file}: no such file or directory`, e);
    throw configError(`error loading config file "${file}": ${firstLine(e)}`, e);
  }
  try {
    const doc = (loadYaml(text) ?? {}) as Record<string, unknown>;
    if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a kubeconfig mapping');
    const dir = path.dirname(file);
    // Relative certificate paths are relative to the kubeconfig file, as client-go resolves them.
    return {
      clusters: types.newClusters(doc.clusters).map((c) => ({ ...c, caFile: absolute(dir, c.caFile) })),
      users: types.newUsers(doc.users).map((u) => ({ ...u, certFile: absolute(dir, u.certFile), keyFile: absolute(dir, u.keyFile) })),
      contexts: types.newContexts(doc.contexts),
      currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : '',
    };
  } catch (e) {
    throw configError(`error loading config file "${file}": ${firstLine(e)}`, e);
  }
}

/** client-go's merge of $KUBECONFIG files: the first file to define a name (or current-context) wins. */
function mergeFirstWins(configs: KubeConfigData[]): KubeConfigData {
  const byName = <T extends { name: string }>(lists: T[][]): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  return {
    clusters: byName(configs.map((c) => c.clusters)),
    users: byName(configs.map((c) => c.users)),
    contexts: byName(configs.map((c) => c.contexts)),
    currentContext: configs.map((c) => c.currentContext).find((c) => c !== '') ?? '',
  };
}

function inCluster(env: NodeJS.ProcessEnv): KubeConfigData | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  const tokenFile = path.join(SERVICEACCOUNT_DIR, 'token');
  if (!host || !port || !fs.existsSync(tokenFile)) return undefined;
  const h = host.includes(':') ? `[${host}]` : host;
  const nsFile = path.join(SERVICEACCOUNT_DIR, 'namespace');
  return {
    clusters: [{ name: 'inCluster', server: `https://${h}:${port}`, caFile: path.join(SERVICEACCOUNT_DIR, 'ca.crt'), skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', token: readTextFileBounded(tokenFile, PEM_LIMIT).trim() }],
    contexts: [
      {
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        namespace: fs.existsSync(nsFile) ? readTextFileBounded(nsFile, PEM_LIMIT).trim() : undefined,
      },
    ],
    currentContext: 'inClusterContext',
  };
}

/**
 * Load the kubeconfig the way linkerd (client-go) does: `--kubeconfig` alone when given,
 * else the `$KUBECONFIG` list (missing files skipped), else `~/.kube/config`, else the
 * in-cluster service account; then apply `--context`. Every failure is a one-line
 * `KubeError` of kind `config`.
 */
export async function loadKubeConfig(sel: KubeSelection, env: NodeJS.ProcessEnv = process.env): Promise<ResolvedKubeConfig> {
  const types = (configTypes ??= await loadConfigTypes());
  let config: KubeConfigData;
  if (sel.kubeconfig) {
    config = loadFile(types, sel.kubeconfig);
  } else if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(path.delimiter).filter((f) => f !== '' && fs.existsSync(f));
    config = mergeFirstWins(files.map((f) => loadFile(types, f)));
  } else {
    const home = path.join(env.HOME || os.homedir(), '.kube', 'config');
    if (fs.existsSync(home)) config = loadFile(types, home);
    else config = inCluster(env) ?? mergeFirstWins([]);
  }

  const empty = config.clusters.length === 0 && config.contexts.length === 0 && config.users.length === 0;
  if (sel.context && !empty) {
    if (!config.contexts.some((c) => c.name === sel.context)) throw configError(`context was not found for specified context: ${sel.context}`);
    config = { ...config, currentContext: sel.context };
  }
  const contextName = config.currentContext;
  if (empty || !contextName) throw configError(NO_CONFIG);
  const context = config.contexts.find((c) => c.name === contextName);
  if (!context) throw configError(`invalid configuration: context was not found for specified context: ${contextName}`);
  const cluster = config.clusters.find((c) => c.name === context.cluster);
  if (!cluster) throw configError(`invalid configuration: cluster "${context.cluster}" was not found for context "${contextName}"`);
  // client-go allows a context without a user: it then sends no credentials.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- client-node types user as required; a kubeconfig may omit it
  const user = config.users.find((u) => u.name === context.user) ?? { name: context.user ?? '' };
  return { config, contextName, context, cluster, user, namespace: context.namespace || 'default' };
}
