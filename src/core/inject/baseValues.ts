import { UserError } from '../errors.js';
import type { KubeClient } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { openProbed } from '../kube/openProbed.js';
import { parseClusterValues } from '../values/config.js';
import { defaultValues } from '../values/defaults.js';
import type { Values } from '../values/schema.js';
import { isMap } from '../values/tree.js';
import { parseValuesYaml, readLocalValuesFile } from '../values/valuesFiles.js';
import { LINKERD_CONFIG } from '../mesh/names.js';

/*
 * The values inject starts from (before the proxy flags), in order:
 *   1. the cluster's `linkerd-config` (unless --ignore-cluster or --values), like linkerd;
 *      with no kubeconfig at all, the defaults — with a note, instead of failing a text transform;
 *   2. or `--values FILE`: chart values, or a whole linkerd-config ConfigMap (`kubectl get cm
 *      linkerd-config -n linkerd -o yaml`), for offline and GitOps use;
 *   3. `--identity-trust-anchors-file` and `--linkerd-cni-enabled` on top.
 * Connection failures print linkerd's own text and exit 1, as cli/cmd/inject.go does.
 */

export interface BaseValuesOptions {
  ignoreCluster: boolean;
  controlPlaneNamespace: string;
  kube: KubeSelection;
  valuesFile?: string;
  trustAnchorsFile?: string;
  /** --linkerd-cni-enabled, when given. */
  cniEnabled?: boolean;
  /** Reads local files (tests substitute it). */
  readFile?: (path: string) => Promise<string> | string;
  /** Connects to the cluster (tests substitute it). */
  connect?: (sel: KubeSelection) => Promise<KubeClient>;
}

export type ValuesOrigin = 'cluster' | 'values-file' | 'defaults';

export interface BaseValues {
  values: Values;
  origin: ValuesOrigin;
  /** Lines for stderr (`‼ …` is added by the printer). */
  notes: string[];
  /** The connected cluster, when values came from it (namespace annotations are read from it). */
  client?: KubeClient;
}

/** What inject's `--values` takes, said after a file that holds something else. */
const INJECT_VALUES_ACCEPTS =
  '--values takes one YAML document: a map of chart values, or the linkerd-config ConfigMap (kubectl get cm linkerd-config -n linkerd -o yaml)';

const CHECK_HINT = "Validate the install with: 'linkerd check'";

async function fromValuesFile(path: string, read: (p: string) => Promise<string> | string): Promise<Values> {
  let tree = parseValuesYaml(await read(path), path, INJECT_VALUES_ACCEPTS);
  // A linkerd-config ConfigMap works as well as its `values`.
  const data = tree.data;
  if (tree.kind === 'ConfigMap' && isMap(data) && typeof data.values === 'string') {
    tree = parseValuesYaml(data.values, `${path}: data.values`, INJECT_VALUES_ACCEPTS);
  }
  return parseClusterValues(tree, path).values;
}

async function fromCluster(o: BaseValuesOptions, notes: string[]): Promise<{ values: Values; client?: KubeClient }> {
  const { connectKube } = await import('../kube/kubeClient.js');
  const { isNoKubeConfig } = await import('../kube/kubeError.js');
  const { readLinkerdConfig } = await import('../kube/linkerdConfig.js');
  let client: KubeClient;
  try {
    client = await openProbed(
      () => (o.connect ?? connectKube)(o.kube),
      (c) => c.serverVersion(),
    );
  } catch (e) {
    // No kubeconfig at all (and none asked for): a text transform needs no cluster. One that
    // names a cluster but fails (a credential plugin, a certificate file) fails as linkerd does.
    if (isNoKubeConfig(e) && !o.kube.kubeconfig && !o.kube.context) {
      notes.push(`no Kubernetes configuration found (${e.message}); using default values (use --ignore-cluster or --values to choose explicitly)`);
      return { values: defaultValues() };
    }
    throw UserError.verbatim(`Cannot connect to Kubernetes: ${(e as Error).message}\n${CHECK_HINT}\n`);
  }
  let raw: Record<string, unknown> | undefined;
  try {
    raw = await readLinkerdConfig(client, o.controlPlaneNamespace);
  } catch (e) {
    client.close();
    throw UserError.verbatim(`Cannot find Linkerd: ${(e as Error).message}\n${CHECK_HINT}\n`);
  }
  if (raw === undefined) {
    client.close();
    throw UserError.verbatim(`Cannot find Linkerd: configmaps "${LINKERD_CONFIG}" not found\n${CHECK_HINT}\n`);
  }
  return { values: parseClusterValues(raw, LINKERD_CONFIG).values, client };
}

export async function resolveBaseValues(o: BaseValuesOptions): Promise<BaseValues> {
  const read = o.readFile ?? readLocalValuesFile;
  const notes: string[] = [];
  let values: Values;
  let origin: ValuesOrigin;
  let client: KubeClient | undefined;
  if (o.valuesFile !== undefined) {
    values = await fromValuesFile(o.valuesFile, read);
    origin = 'values-file';
  } else if (o.ignoreCluster) {
    values = defaultValues();
    origin = 'defaults';
  } else {
    const c = await fromCluster(o, notes);
    values = c.values;
    client = c.client;
    origin = client ? 'cluster' : 'defaults';
  }
  if (o.trustAnchorsFile !== undefined) {
    const pem = await read(o.trustAnchorsFile);
    const { parseCertificates } = await import('../pki/parseCertificates.js');
    parseCertificates(pem.trim() + '\n', o.trustAnchorsFile);
    values.identityTrustAnchorsPEM = pem;
  }
  if (o.cniEnabled !== undefined) values.cniEnabled = o.cniEnabled;
  return { values, origin, notes, client };
}

/** `config.linkerd.io/*` annotations of namespaces, read from the cluster (missing or forbidden: none). */
export async function clusterNamespaceAnnotations(client: KubeClient, names: Iterable<string>): Promise<Map<string, Record<string, string>>> {
  const out = new Map<string, Record<string, string>>();
  const list = [...new Set(names)];
  const CONCURRENCY = 8;
  for (let i = 0; i < list.length; i += CONCURRENCY) {
    await Promise.all(
      list.slice(i, i + CONCURRENCY).map(async (name) => {
        try {
          const ns = await client.find('namespaces', name);
          if (ns?.metadata?.annotations) out.set(name, ns.metadata.annotations);
        } catch {
          // Not readable: the injector would not see it either way; render from the values.
        }
      }),
    );
  }
  return out;
}
