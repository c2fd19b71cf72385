import { readStreamBounded, readTextFileBounded } from '../input/boundedRead.js';
import { SPEC_FILE_LIMIT } from '../input/limits.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { UserError } from '../errors.js';
import { DEFAULT_CLUSTER_DOMAIN } from './clusterDomain.js';
import { openApiProfile } from './openApi.js';
import { type ProfileFormat, profileJson, profileYaml, templateJson } from './print.js';
import { protoProfile } from './proto.js';
import { type ProfileTarget, validateTarget } from './serviceProfile.js';
import { profileTemplate } from './template.js';

/*
 * `linkerd profile`, as linkerd's cli/cmd/profile.go runs it: one source, the SERVICE and
 * namespace checked, the cluster domain read from linkerd-config (unless --ignore-cluster), then
 * the template, or the profile generated from an OpenAPI or protobuf file (`-` reads stdin).
 */

export type ProfileSource = { kind: 'template' } | { kind: 'open-api' | 'proto'; file: string };

export interface ProfileRequest {
  service: string;
  /** `-n`; the kubeconfig context's namespace when undefined. */
  namespace?: string;
  source: ProfileSource;
  format: ProfileFormat;
  ignoreCluster: boolean;
  controlPlaneNamespace: string;
  cluster: KubeSelection;
  stdin: AsyncIterable<Uint8Array | string>;
}

/** Exactly one of the three, or linkerd's refusal. */
export function profileSource(o: { template: boolean; openApi: string; proto: string }): ProfileSource {
  const given = [o.template, o.openApi !== '', o.proto !== ''].filter(Boolean).length;
  if (given !== 1) throw new UserError('You must specify exactly one of --template or --open-api or --proto');
  if (o.template) return { kind: 'template' };
  return o.openApi !== '' ? { kind: 'open-api', file: o.openApi } : { kind: 'proto', file: o.proto };
}

async function contextNamespace(cluster: KubeSelection): Promise<string> {
  const { loadKubeConfig } = await import('../kube/kubeconfig.js');
  try {
    return (await loadKubeConfig(cluster)).namespace;
  } catch {
    return 'default';
  }
}

async function clusterDomain(req: ProfileRequest): Promise<string> {
  if (req.ignoreCluster) return DEFAULT_CLUSTER_DOMAIN;
  const [{ connectKube }, { clusterDomainOf }] = await Promise.all([import('../kube/kubeClient.js'), import('./clusterDomain.js')]);
  return clusterDomainOf(await connectKube(req.cluster), req.controlPlaneNamespace);
}

async function readSpec(file: string, stdin: ProfileRequest['stdin']): Promise<{ text: string; source: string }> {
  if (file === '-') return { text: (await readStreamBounded(stdin, SPEC_FILE_LIMIT, '<stdin>')).toString('utf8'), source: '<stdin>' };
  return { text: readTextFileBounded(file, SPEC_FILE_LIMIT), source: file };
}

/** What `linkerd profile` prints. */
export async function renderProfile(req: ProfileRequest): Promise<string> {
  const namespace = req.namespace ?? (await contextNamespace(req.cluster));
  validateTarget(req.service, namespace);
  const target: ProfileTarget = { service: req.service, namespace, clusterDomain: await clusterDomain(req) };
  if (req.source.kind === 'template') {
    const text = profileTemplate(target);
    return req.format === 'json' ? templateJson(text) : text;
  }
  const { text, source } = await readSpec(req.source.file, req.stdin);
  const profile = req.source.kind === 'open-api' ? openApiProfile(text, source, target) : protoProfile(text, source, target);
  return req.format === 'json' ? profileJson(profile) : profileYaml(profile);
}

export { profileFormat } from './print.js';
