import type { Node, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { CONTROL_PLANE_NS_LABEL } from '../mesh/names.js';
import { readManifestSources, type SourceReaders } from '../manifest/sources.js';
import { isMap, isNode, isScalar } from 'yaml';
import { objectNodes } from '../manifest/objectNodes.js';
import { toPlain } from '../manifest/positions.js';
import { parseManifestStream } from '../manifest/stream.js';
import { DOCKER_NODES } from './cluster.js';
import { OVERRIDES_SECRET } from '../mesh/loadStoredValues.js';

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
}

function isObject(v: unknown): v is ManifestObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects of a manifest, served like a cluster holding only them (linkerd's fake API from manifests). */
export class ManifestState implements UpgradeSource {
  constructor(private readonly objects: readonly ManifestObject[]) {}

  /** Reads `--from-manifests FILE|URL|-`: the YAML (or JSON lines) of `linkerd install`. */
  static async read(source: string, readers: SourceReaders = {}): Promise<ManifestState> {
    const plain: { index: number; value: unknown }[] = [];
    try {
      for (const s of await readManifestSources([source], readers)) {
        for (const d of parseManifestStream(s).docs) {
          const root = d.doc.contents;
          if (!d.present || root === null || isScalar(root)) continue;
          const where = { name: s.name, text: s.text, offset: d.region.start };
          // A `kind: List` (kubectl get -o yaml) holds its objects in `items`.
          for (const node of isMap(root) ? objectNodes(root) : [root]) {
            plain.push({ index: d.index, value: toPlain(d.doc, where, isNode(node) ? node : undefined) });
          }
        }
      }
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`failed to parse manifests from ${source}: ${e.message}`, { cause: e });
      throw e;
    }
    const objects = plain.map(({ index, value }) => {
      if (isObject(value) && typeof value.kind === 'string' && typeof value.apiVersion === 'string') return value;
      throw new UserError(
        `failed to parse Kubernetes objects from manifest ${source}: document ${index} is not a Kubernetes object (apiVersion and kind are required)`,
      );
    });
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
