import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import * as apps from 'kubernetes-models/apps/v1';
import * as core from 'kubernetes-models/v1';
import { runCheck, type CheckReport } from '../../../src/core/check/index.js';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { createTrustAnchor, sha256Hex, type Credentials } from '../../../src/core/pki/index.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { startApiServer, kubeGlobals, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { healthyCluster, makePki, type PkiOptions } from '../check/support/clusters.js';
import { request } from '../check/support/run.js';
import { writeTestFile } from '../../support/testFiles.js';

export const NS = 'linkerd';
const DAY = 86_400_000;

/** A served cluster: this project's install with the emojivoto meshed pods. */
export async function servedCluster(pki: PkiOptions = {}): Promise<{ server: ApiServer; anchor: Credentials }> {
  const p = await makePki(pki);
  const cluster = await healthyCluster({ pki: p, scenarios: ['emojivoto.yaml'] });
  const server = await startApiServer({ objects: cluster.objects });
  return { server, anchor: p.anchor };
}

export const selection = (server: ApiServer) => kubeGlobals(server);

/** Files in a fresh temp dir; removed by the returned cleanup. */
export function tempDir(): { dir: string; file: (name: string, content?: string) => string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-identity-'));
  return {
    dir,
    file: (name, content) => {
      const p = path.join(dir, name);
      if (content !== undefined) writeTestFile(p, content);
      return p;
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A new anchor, written as PEM files. */
export async function newAnchorFiles(
  t: ReturnType<typeof tempDir>,
  name: string,
  o: { from?: number; to?: number } = {},
): Promise<{ crt: string; key: string; anchor: Credentials }> {
  const anchor = await createTrustAnchor({
    commonName: 'root.linkerd.cluster.local',
    notBefore: new Date(Date.now() + (o.from ?? 0) * DAY - 1000),
    notAfter: new Date(Date.now() + (o.to ?? 3650) * DAY),
  });
  return { crt: t.file(`${name}.crt`, anchor.certPem), key: t.file(`${name}.key`, anchor.keyPem), anchor };
}

/** `kubectl apply`: the step's objects replace the served ones. */
export function apply(server: ApiServer, objects: readonly RenderedObject[]): void {
  server.put(...(JSON.parse(JSON.stringify(objects)) as object[]));
}

interface ProxyEnv {
  name: string;
  value?: string;
}

/**
 * What a restart does to meshed pods: the injector inlines the current bundle (workloads), the
 * control plane's pods carry the digest of linkerd-config's anchors, and they start at `at`.
 */
export function restartMeshedPods(server: ApiServer, at: Date): void {
  const config = server.objects('v1', 'ConfigMap', NS).find((c) => c.metadata.name === 'linkerd-identity-trust-roots');
  const bundle = (config?.data as Record<string, string> | undefined)?.['ca-bundle.crt'] ?? '';
  const pods = server.objects('v1', 'Pod');
  const restarted: StoredObject[] = [];
  for (const pod of pods) {
    const spec = pod.spec as { containers?: Array<{ name: string; env?: ProxyEnv[] }>; initContainers?: Array<{ name: string; env?: ProxyEnv[] }> };
    const proxy = [...(spec.initContainers ?? []), ...(spec.containers ?? [])].find((c) => c.name === 'linkerd-proxy');
    const env = proxy?.env?.find((e) => e.name === 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS');
    if (!env) continue;
    const copy = JSON.parse(JSON.stringify(pod)) as StoredObject & { status: Record<string, unknown> };
    const copySpec = copy.spec as typeof spec;
    const copyEnv = [...(copySpec.initContainers ?? []), ...(copySpec.containers ?? [])]
      .find((c) => c.name === 'linkerd-proxy')
      ?.env?.find((e) => e.name === 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS');
    if (copyEnv && env.value !== undefined) copyEnv.value = bundle;
    else copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), 'linkerd.io/trust-root-sha256': sha256Hex(controlPlaneAnchors(server)) };
    copy.metadata.creationTimestamp = at.toISOString();
    copy.status = { ...copy.status, startTime: at.toISOString() };
    restarted.push(copy);
  }
  server.put(...restarted);
}

/** linkerd-config's `identityTrustAnchorsPEM`, exactly (what the control-plane pods' digest is of). */
export function controlPlaneAnchors(server: ApiServer): string {
  const cm = server.objects('v1', 'ConfigMap', NS).find((c) => c.metadata.name === 'linkerd-config');
  const text = (cm?.data as Record<string, string> | undefined)?.values ?? '';
  // The values are YAML written by js-yaml; parse with it.
  return (yaml.load(text) as { identityTrustAnchorsPEM?: string }).identityTrustAnchorsPEM ?? '';
}

/** `check --proxy`, reduced to the identity categories: `<id> <status>[: first line of error]`. */
export async function identityChecks(server: ApiServer): Promise<string[]> {
  const report: CheckReport = await runCheck(request(server.kubeconfigPath, { mode: 'proxy' }));
  return report.results
    .filter((r) => r.id.startsWith('L5D18') || r.id.startsWith('L5D20'))
    .map((r) => `${r.id} ${r.status}${r.error ? `: ${r.error.split('\n')[0] ?? ''}` : ''}`);
}

const MODELS: Record<string, Record<string, new (data: object) => { validate(): void }>> = { v1: core as never, 'apps/v1': apps as never };

/** Every object validates against its Kubernetes schema and is admitted by a server-side dry-run create. */
export async function validateManifest(objects: readonly RenderedObject[]): Promise<void> {
  for (const o of objects) {
    const Model = MODELS[o.apiVersion]?.[o.kind];
    if (!Model) throw new Error(`no model for ${o.apiVersion} ${o.kind}`);
    new Model(JSON.parse(JSON.stringify(o)) as object).validate();
  }
  const empty = await startApiServer({ objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }] });
  const client = await connectKube(kubeGlobals(empty));
  try {
    for (const o of objects) await client.dryRunCreate(JSON.parse(JSON.stringify(o)) as RenderedObject);
  } finally {
    client.close();
    await empty.stop();
  }
}
