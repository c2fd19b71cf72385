import { UserError } from '../errors.js';
import { readPemFile, readPemInput } from '../files/readPemFile.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { inspectCluster, inspectPem, type InspectReport } from './inspect.js';

export interface InspectRequest {
  /** A PEM file, `-` for stdin; absent with `cluster`. */
  file?: string;
  cluster: boolean;
  trustAnchors?: string;
  selection: KubeSelection;
  namespace: string;
  now?: Date;
}

/** `linkerd identity inspect FILE|-|--cluster`. */
export async function inspect(req: InspectRequest): Promise<InspectReport> {
  if (req.cluster) {
    if (req.file !== undefined) throw new UserError('give a file or --cluster, not both');
    if (req.trustAnchors !== undefined) throw new UserError('--trust-anchors is for files; --cluster checks the issuer against the cluster’s own bundle');
    return inspectCluster({ selection: req.selection, namespace: req.namespace, now: req.now });
  }
  if (req.file === undefined) throw new UserError('give a PEM file, - for standard input, or --cluster');
  const text = await readPemInput(req.file);
  const source = req.file === '-' ? '<stdin>' : req.file;
  const anchorsText = req.trustAnchors === undefined ? undefined : readPemFile(req.trustAnchors);
  return inspectPem({ text, source, anchorsText, anchorsSource: req.trustAnchors, now: req.now });
}
