import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Node, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import { CONTROL_PLANE_NS_LABEL } from '../mesh/names.js';
import { listManifestInputs, type SourceReaders } from '../manifest/sources.js';
import { isMap, isNode, isScalar } from 'yaml';
import { objectNodes } from '../manifest/objectNodes.js';
import { toPlain } from '../manifest/positions.js';
import { inputStreams } from '../manifest/stream.js';
import { DOCKER_NODES } from './cluster.js';
import { OVERRIDES_SECRET } from '../mesh/loadStoredValues.js';
import { redactedUrl } from '../net/redactedUrl.js';

const HEARTBEAT = 'linkerd-heartbeat';

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
  /** The installed `linkerd-heartbeat` CronJob, whose schedule an upgrade keeps. */
  heartbeat(namespace: string): Promise<CronJob | undefined>;
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
    const objects: ManifestObject[] = [];
    const notAnObject = (index: number) =>
      new UserError(
        `failed to parse Kubernetes objects from manifest ${source}: document ${index} is not a Kubernetes object (apiVersion and kind are required)`,
      );
    try {
      for (const input of (await listManifestInputs([source], readers)).inputs) {
        // Document by document, each checked as soon as it is parsed: a stream of millions of
        // non-objects ends at the first one, with one document in memory.
        let segment = 0;
        for await (const stream of inputStreams(input)) {
          segment++;
          for (const d of stream.docs) {
            const root = d.doc.contents;
            if (!d.present || root === null || isScalar(root)) continue;
            const index = stream.segment ? segment : d.index;
            const where = { name: stream.source.name, text: stream.source.text, offset: d.region.start, lineOffset: stream.source.lineOffset };
            // A `kind: List` (kubectl get -o yaml) holds its objects in `items`.
            for (const node of isMap(root) ? objectNodes(root) : [root]) {
              const value = toPlain(d.doc, where, isNode(node) ? node : undefined);
              if (!isObject(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') throw notAnObject(index);
              objects.push(value);
            }
          }
        }
      }
    } catch (e) {
      if (e instanceof UserError && !e.message.startsWith('failed to parse Kubernetes objects'))
        throw new UserError(`failed to parse manifests from ${redactedUrl(source)}: ${e.message}`, { cause: e });
      throw e;
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
    // Manifests are not validated like API objects: a Node may lack the field or hold another type.
    const docker = this.ofKind<Node>('Node').some((n) => {
      const runtime: unknown = n.status?.nodeInfo?.containerRuntimeVersion;
      return typeof runtime === 'string' && runtime.startsWith('docker:');
    });
    return docker ? Promise.reject(UserError.verbatim(DOCKER_NODES)) : Promise.resolve();
  }

  heartbeat(namespace: string): Promise<CronJob | undefined> {
    const found = this.objects.find(
      (o) => o.kind === 'CronJob' && o.apiVersion === 'batch/v1' && o.metadata?.name === HEARTBEAT && (o.metadata.namespace ?? 'default') === namespace,
    );
    return Promise.resolve(found as CronJob | undefined);
  }

  /** An install manifest holds no EndpointSlices; offline, the cluster's API is not there to ask. */
  assertEndpointSlices(): Promise<void> {
    return Promise.resolve();
  }
}
