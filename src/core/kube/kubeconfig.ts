import fs, { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { readFileBounded, readTextFileBounded } from '../input/boundedRead.js';
import { loadYaml } from '../input/loadYaml.js';
import { formatBytes, type InputLimit, KUBECONFIG_LIMIT, overLimitMessage, PEM_LIMIT } from '../input/limits.js';
import { firstLine, UserError } from '../errors.js';
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
export type ConfigTypes = typeof import('@kubernetes/client-node/dist/config_types.js');
let configTypes: ConfigTypes | undefined;

function absolute(dir: string, file: string | undefined): string | undefined {
  return file === undefined || path.isAbsolute(file) ? file : path.join(dir, file);
}

/**
 * How long a kubeconfig file (or a file it names) may take to read: a FIFO or a process
 * substitution whose writer never finishes is an error, not a hang.
 */
export const KUBE_FILE_TIME_LIMIT_MS = 5_000;

/**
 * A file named by the kubeconfig settings, bounded in size and time. Opened non-blocking, so a
 * FIFO nobody writes to reads as empty instead of blocking in open(2).
 */
export function readKubeFile(file: string, limit: InputLimit): Buffer {
  return readFileBounded(file, limit, file, constants.O_RDONLY | constants.O_NONBLOCK, KUBE_FILE_TIME_LIMIT_MS);
}

/** What is left of the one size budget all kubeconfig files of a run share. */
interface KubeconfigBudget {
  left: number;
}

function loadFile(types: ConfigTypes, file: string, budget: KubeconfigBudget = { left: KUBECONFIG_LIMIT.bytes }): KubeConfigData {
  let text: string;
  try {
    const limit = { bytes: budget.left, what: KUBECONFIG_LIMIT.what };
    let bytes: Buffer;
    try {
      bytes = readKubeFile(file, limit);
    } catch (e) {
      if (budget.left < KUBECONFIG_LIMIT.bytes && (e as Error).message === overLimitMessage(file, limit)) {
        throw new UserError(`the files of KUBECONFIG together are larger than the ${formatBytes(KUBECONFIG_LIMIT.bytes)} limit for ${KUBECONFIG_LIMIT.what}`);
      }
      throw e;
    }
    budget.left -= bytes.length;
    text = bytes.toString('utf8');
  } catch (e) {
    const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT') throw configError(`stat ${file}: no such file or directory`, e);
    throw configError(`error loading config file "${file}": ${firstLine(e)}`, e);
  }
  try {
    const config = parseKubeconfigDoc(types, text);
    const dir = path.dirname(file);
    // Relative certificate paths are relative to the kubeconfig file, as client-go resolves them.
    return {
      ...config,
      clusters: config.clusters.map((c) => ({ ...c, caFile: absolute(dir, c.caFile) })),
      users: config.users.map((u) => ({ ...u, certFile: absolute(dir, u.certFile), keyFile: absolute(dir, u.keyFile) })),
    };
  } catch (e) {
    throw configError(`error loading config file "${file}": ${firstLine(e)}`, e);
  }
}

/** A kubeconfig's text as client-node's entries (paths left as written). */
export function parseKubeconfigDoc(types: ConfigTypes, text: string): KubeConfigData {
  return kubeconfigEntries(types, loadYaml(text) ?? {});
}

/** A parsed kubeconfig document as client-node's entries. */
export function kubeconfigEntries(types: ConfigTypes, parsed: unknown): KubeConfigData {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a kubeconfig mapping');
  const doc = parsed as Record<string, unknown>;
  return {
    clusters: types.newClusters(doc.clusters),
    users: types.newUsers(doc.users),
    contexts: types.newContexts(doc.contexts),
    currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : '',
  };
}

/** client-node's kubeconfig entry parsers, loaded once. */
export async function kubeconfigTypes(): Promise<ConfigTypes> {
  return (configTypes ??= await loadConfigTypes());
}

/**
 * The existing files of a $KUBECONFIG list, each once (client-go drops repeated entries; the
 * same file under another name is dropped too), in order.
 */
function kubeconfigFiles(list: string): string[] {
  const seen = new Set<string>();
  return list.split(path.delimiter).filter((f) => {
    if (f === '') return false;
    let key: string;
    try {
      const st = fs.statSync(f);
      key = `${st.dev}:${st.ino}`;
    } catch {
      return false;
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
    const budget = { left: KUBECONFIG_LIMIT.bytes };
    config = mergeFirstWins(kubeconfigFiles(env.KUBECONFIG).map((f) => loadFile(types, f, budget)));
  } else {
    const home = path.join(env.HOME || os.homedir(), '.kube', 'config');
    if (fs.existsSync(home)) config = loadFile(types, home);
    else config = inCluster(env) ?? mergeFirstWins([]);
  }

  return resolveContext(config, sel.context);
}

/** The kubeconfig narrowed to `context` (else its current one): cluster, user and namespace. */
export function resolveContext(config: KubeConfigData, contextFlag: string | undefined): ResolvedKubeConfig {
  const sel = { context: contextFlag };
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
