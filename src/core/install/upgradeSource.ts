import type { Node, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { CONTROL_PLANE_NS_LABEL } from '../check/pods.js';
import { readManifestSources, type SourceReaders } from '../manifest/sources.js';
import { toPlain } from '../manifest/positions.js';
import { parseManifestStream } from '../manifest/stream.js';
import { DOCKER_NODES } from './cluster.js';
import { OVERRIDES_SECRET } from './loadStoredValues.js';

/**
 * Where `upgrade` reads what is installed: the cluster (InstallCluster), or the output of an
 * earlier `linkerd install` given with `--from-manifests` (ManifestState), so an upgrade can be
 * rendered offline.
 */
export interface UpgradeSource {
  overridesSecret(namespace: string): Promise<Secret | undefined>;
  /** Pods with a `linkerd.io/control-plane-ns` label, in every namespace. */
  meshedPods(): Promise<Pod[]>;
  assertNoDockerNodes(): Promise<void>;
  assertEndpointSlices(): Promise<void>;
}

interface ManifestObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; labels?: Record<string, unknown> };
  /** A `kind: List`'s objects (`kubectl get -o yaml`). */
  items?: unknown;
}

function isObject(v: unknown): v is ManifestObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects of a manifest, served like a cluster holding only them (linkerd's fake API from manifests). */
export class ManifestState implements UpgradeSource {
  constructor(private readonly objects: readonly ManifestObject[]) {}

  /** Reads `--from-manifests FILE|URL|-`: the YAML (or JSON lines) of `linkerd install`. */
  static async read(source: string, readers: SourceReaders = {}): Promise<ManifestState> {
    let docs: unknown[];
    try {
      const sources = await readManifestSources([source], readers);
      docs = sources.flatMap((s) =>
        parseManifestStream(s)
          .docs.filter((d) => d.present)
          .map((d) => toPlain(d.doc, { name: s.name, text: s.text, offset: d.region.start })),
      );
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`failed to parse manifests from ${source}: ${e.message}`, { cause: e });
      throw e;
    }
    const objects: ManifestObject[] = [];
    for (const [i, doc] of docs.entries()) {
      if (doc === null || doc === undefined) continue;
      if (!isObject(doc) || typeof doc.kind !== 'string' || typeof doc.apiVersion !== 'string') {
        throw new UserError(`failed to parse Kubernetes objects from manifest ${source}: document ${i + 1} is not a Kubernetes object (apiVersion and kind are required)`);
      }
      const items: unknown = doc.items;
      objects.push(...(doc.kind === 'List' && Array.isArray(items) ? items.filter(isObject) : [doc]));
    }
    return new ManifestState(objects);
  }

  private ofKind<T>(kind: string): T[] {
    return this.objects.filter((o) => o.kind === kind && o.apiVersion === 'v1') as T[];
  }

  overridesSecret(namespace: string): Promise<Secret | undefined> {
    const found = this.ofKind<Secret>('Secret').find((s) => s.metadata?.name === OVERRIDES_SECRET && (s.metadata.namespace ?? 'default') === namespace);
    return Promise.resolve(found);
  }

  meshedPods(): Promise<Pod[]> {
    return Promise.resolve(this.ofKind<Pod>('Pod').filter((p) => p.metadata?.labels?.[CONTROL_PLANE_NS_LABEL] !== undefined));
  }

  assertNoDockerNodes(): Promise<void> {
    const docker = this.ofKind<Node>('Node').some((n) => n.status?.nodeInfo?.containerRuntimeVersion.startsWith('docker:'));
    return docker ? Promise.reject(UserError.verbatim(DOCKER_NODES)) : Promise.resolve();
  }

  /** An install manifest holds no EndpointSlices; offline, the cluster's API is not there to ask. */
  assertEndpointSlices(): Promise<void> {
    return Promise.resolve();
  }
}
