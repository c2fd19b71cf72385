import fs from 'node:fs';
import { renderCrds } from '../../../../templates/crds/index.js';
import { createIssuer, createTrustAnchor, createWebhookCert, generateEcdsaP256Key, type Credentials } from '../../../../src/core/pki/index.js';
import { defaultValues, type Values } from '../../../../src/core/values/index.js';
import { LINKERD_VERSION } from '../../../../src/core/version.js';
import { parseYamlObjects, type StoredObject } from '../../../support/apiserver-store.js';
import { renderControlPlaneObjects } from './controlPlane.js';

/*
 * Clusters for `linkerd check` tests: fixtures/clusters/empty.yaml, the CRDs and control plane
 * this project's own install renders, pods for every Deployment with a status, and optional
 * scenario files from fixtures/clusters/check/. Tests edit the object list before serving it.
 */

export const DAY = 86_400_000;
const NS = 'linkerd';

export interface Window {
  /** Days relative to now; negative is in the past. */
  from: number;
  to: number;
}

export interface Pki {
  anchor: Credentials;
  issuer: Credentials;
  webhooks: Record<'proxyInjector' | 'profileValidator' | 'policyValidator', Credentials>;
}

export interface PkiOptions {
  anchor?: Window;
  issuer?: Window;
  webhook?: Window;
  /** Sign the issuer with a different, unrelated anchor. */
  issuerFromOtherAnchor?: boolean;
}

const at = (days: number) => new Date(Date.now() + days * DAY);
const pkiCache = new Map<string, Promise<Pki>>();

/** Identity and webhook certificates with the given validity windows (cached per window set). */
export function makePki(o: PkiOptions = {}): Promise<Pki> {
  const key = JSON.stringify(o);
  let p = pkiCache.get(key);
  if (!p) {
    p = (async () => {
      const a = o.anchor ?? { from: -1, to: 365 };
      const i = o.issuer ?? { from: -1, to: 365 };
      const w = o.webhook ?? { from: -1, to: 365 };
      const anchor = await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', notBefore: at(a.from), notAfter: at(a.to) });
      const signer = o.issuerFromOtherAnchor
        ? await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', notBefore: at(-1), notAfter: at(365) })
        : anchor;
      const issuer = await createIssuer({ anchor: signer, commonName: `identity.${NS}.cluster.local`, notBefore: at(i.from), notAfter: at(i.to) });
      const hook = async (svc: string) =>
        createWebhookCert({ dnsName: `${svc}.${NS}.svc`, notBefore: at(w.from), notAfter: at(w.to), keys: await generateEcdsaP256Key() });
      const webhooks = {
        proxyInjector: await hook('linkerd-proxy-injector'),
        profileValidator: await hook('linkerd-sp-validator'),
        policyValidator: await hook('linkerd-policy-validator'),
      };
      return { anchor, issuer, webhooks };
    })();
    pkiCache.set(key, p);
  }
  return p;
}

export interface ClusterOptions {
  pki?: Pki;
  /** Scenario files under fixtures/clusters/check/ (e.g. `emojivoto.yaml`). */
  scenarios?: string[];
  /** Version of the control plane and its proxies (default: this CLI's). */
  version?: string;
  ha?: boolean;
  /** Values overrides applied before rendering. */
  values?: (v: Values) => void;
  /** Leave the Gateway API CRDs out. */
  withoutGatewayApi?: boolean;
}

export interface Cluster {
  objects: StoredObject[];
  pki: Pki;
  values: Values;
  /** The trust bundle pods are expected to carry. */
  bundle: string;
}

const base = () => parseYamlObjects('fixtures/clusters/empty.yaml');

/** Pods (and their ReplicaSet) for a Deployment, Running and ready, with a proxy of `version`. */
function podsFor(deploy: StoredObject, version: string, index: number): StoredObject[] {
  const spec = (deploy.spec ?? {}) as {
    replicas?: number;
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
  };
  const replicas = spec.replicas ?? 1;
  const name = deploy.metadata.name;
  const ns = deploy.metadata.namespace ?? NS;
  const hash = `7d9c8b6f${index}`;
  const template = spec.template ?? {};
  const podSpec = JSON.parse(JSON.stringify(template.spec ?? {})) as {
    containers?: Array<{ name: string; image?: string }>;
    initContainers?: Array<{ name: string; image?: string; restartPolicy?: string }>;
  };
  for (const c of [...(podSpec.initContainers ?? []), ...(podSpec.containers ?? [])]) {
    if (c.name === 'linkerd-proxy') c.image = `cr.l5d.io/linkerd/proxy:${version}`;
  }
  const running = { running: { startedAt: '${now-50m}' } };
  const pods: StoredObject[] = [];
  for (let r = 0; r < replicas; r++) {
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${name}-${hash}-${'abcde'.slice(0, 4)}${r}`,
        namespace: ns,
        labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash },
        annotations: template.metadata?.annotations ?? {},
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${hash}`, uid: `00000000-0000-0000-0000-0000000000${index}${r}`, controller: true },
        ],
        creationTimestamp: '${now-1h}',
      },
      spec: podSpec,
      status: {
        phase: 'Running',
        podIP: `10.244.0.${10 + index * 4 + r}`,
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        initContainerStatuses: (podSpec.initContainers ?? []).map((c) =>
          c.restartPolicy === 'Always'
            ? { name: c.name, ready: true, started: true, restartCount: 0, state: running }
            : { name: c.name, ready: true, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
        ),
        containerStatuses: (podSpec.containers ?? []).map((c) => ({ name: c.name, ready: true, started: true, restartCount: 0, state: running })),
      },
    });
  }
  const rs: StoredObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `${name}-${hash}`, namespace: ns, labels: template.metadata?.labels ?? {} },
    spec: { replicas, selector: { matchLabels: template.metadata?.labels ?? {} }, template },
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas, fullyLabeledReplicas: replicas },
  };
  return [rs, ...pods];
}

/** Substitute the placeholders of a scenario file. */
function scenario(file: string, bundle: string, version: string): StoredObject[] {
  const text = fs
    .readFileSync(`fixtures/clusters/check/${file}`, 'utf8')
    .replaceAll('__PROXY_VERSION__', version)
    .replaceAll('__TRUST_ANCHORS__', JSON.stringify(bundle));
  return parseYamlObjects(text);
}

/** A healthy cluster: everything `linkerd check` and `linkerd check --proxy` look at is green. */
export async function healthyCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const pki = o.pki ?? (await makePki());
  const version = o.version ?? LINKERD_VERSION;
  const values = defaultValues(version);
  values.identityTrustAnchorsPEM = pki.anchor.certPem;
  values.identity.issuer.tls.crtPEM = pki.issuer.certPem;
  values.identity.issuer.tls.keyPEM = pki.issuer.keyPem;
  if (o.ha) {
    values.highAvailability = true;
    values.controllerReplicas = 3;
  }
  o.values?.(values);
  const bundle = values.identityTrustAnchorsPEM.trim();

  const crds = renderCrds({
    namespace: NS,
    cliVersion: version,
    chartVersion: version.replace(/^[a-z]+-/, ''),
    installGatewayAPI: !o.withoutGatewayApi,
  }) as unknown as StoredObject[];
  const controlPlane = renderControlPlaneObjects(values, { namespace: NS, webhooks: pki.webhooks });
  const deployments = controlPlane.filter((x) => x.kind === 'Deployment');
  const workloads = deployments.flatMap((d, i) => podsFor(d, version, i + 1));
  for (const d of deployments) {
    const replicas = (d.spec as { replicas?: number })?.replicas ?? 1;
    d.status = { replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas };
  }
  const extra = (o.scenarios ?? []).flatMap((f) => scenario(f, bundle, version));
  return { objects: [...base(), ...crds, ...controlPlane, ...workloads, ...extra], pki, values, bundle };
}

/** Replace or remove objects: `edit(objects, 'v1', 'Pod', 'name', fn)` (fn returns undefined to delete). */
export function edit(
  objects: StoredObject[],
  kind: string,
  name: string,
  fn: (o: StoredObject) => StoredObject | undefined,
  namespace?: string,
): StoredObject[] {
  let hit = false;
  const out = objects.flatMap((o) => {
    if (o.kind !== kind || o.metadata.name !== name || (namespace !== undefined && o.metadata.namespace !== namespace)) return [o];
    hit = true;
    const next = fn(JSON.parse(JSON.stringify(o)) as StoredObject);
    return next ? [next] : [];
  });
  if (!hit) throw new Error(`no ${kind} ${name} in the fixture`);
  return out;
}

export function without(objects: StoredObject[], kind: string, name?: string): StoredObject[] {
  return objects.filter((o) => !(o.kind === kind && (name === undefined || o.metadata.name === name)));
}
