import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import type { SourceReaders, SkippedEntry } from '../../core/manifest/sources.js';
import type { Finding, Severity } from './finding.js';
import { readInputs } from './read.js';
import { analyze, RULES } from './rules/index.js';
import { exitCodeFor, parseSuppression, suppressed } from './suppress.js';
import { TRUST_DOMAIN } from './mesh.js';

export interface AnalyzeRun {
  readonly inputs: readonly string[];
  readonly useCluster: boolean;
  /** `-n`: the namespace of objects without one; with it, `--use-cluster` reads that namespace and the files' ones. */
  readonly namespace?: string;
  readonly failOn: Severity;
  readonly suppress: readonly string[];
  readonly controlPlaneNamespace: string;
  readonly kube: KubeSelection;
  readonly readers?: SourceReaders;
}

export interface AnalyzeResult {
  readonly findings: Finding[];
  readonly skipped: SkippedEntry[];
  readonly exitCode: number;
}

export async function runAnalyze(o: AnalyzeRun): Promise<AnalyzeResult> {
  const codes = new Set(RULES.map((r) => r.code));
  const suppressions = o.suppress.map((s) => parseSuppression(s, codes));
  const read =
    o.inputs.length === 0 && o.useCluster ? { objects: [], repeatedKeys: [], skipped: [] } : await readInputs(o.inputs, o.namespace ?? 'default', o.readers);
  let objects = read.objects;
  let mesh: { trustDomain: string; defaultPolicy?: string } = { trustDomain: TRUST_DOMAIN };
  if (o.useCluster) {
    const [{ connectKube }, { clusterObjects, clusterMesh, clusterScope, mergeObjects }] = await Promise.all([
      import('../../core/kube/kubeClient.js'),
      import('./cluster.js'),
    ]);
    const kube = await connectKube(o.kube);
    mesh = await clusterMesh(kube, o.controlPlaneNamespace);
    objects = mergeObjects(read.objects, await clusterObjects(kube, clusterScope(o.namespace, read.objects)));
  }
  const all = analyze({ objects, repeatedKeys: read.repeatedKeys }, { ...mesh, controlPlaneNamespace: o.controlPlaneNamespace });
  const findings = all.filter((f) => !suppressed(f, suppressions));
  return { findings, skipped: read.skipped, exitCode: exitCodeFor(findings, o.failOn) };
}
