import type { Info } from 'kubernetes-types/version.js';
import { connectKube, type KubeClient } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import type { ObjectOf, ResourceRef } from '../kube/resources.js';
import { PromiseMemo } from '../mesh/promiseMemo.js';
import type { CheckFamilyOptions } from './family.js';
import { DirectReader, SnapshotReader, type ClusterReader, type ReadOptions } from './reader.js';
import type { CheckMode } from './types.js';

/** Where the latest versions come from, and how long to wait for them. */
export interface VersionCheckOptions {
  /** `https://versioncheck.linkerd.io/version.json`; query parameters are added. */
  url: string;
  timeoutMs: number;
}

/**
 * Everything the checks need to know about this run; fixed before the first check starts.
 * Every family sees these (they are the flags the real CLI forwards to extensions, and the
 * run's settings); what only one family reads lives in its slot under `families`.
 */
export interface CheckOptions {
  mode: CheckMode;
  kube: KubeSelection;
  controlPlaneNamespace: string;
  /** `--api-addr`: extensions reach their control-plane APIs at this address instead of a port-forward. */
  apiAddr?: string;
  /** `--proxy -n`: the data-plane namespace (all when undefined). */
  dataPlaneNamespace?: string;
  /** The CLI version checks compare against (`--cli-version-override` replaces it). */
  cliVersion: string;
  /** `--expected-version`: the latest version, without asking versioncheck.linkerd.io. */
  expectedVersion?: string;
  versionCheck: VersionCheckOptions;
  /** Deadline of each Kubernetes request and of each check attempt. */
  timeoutMs: number;
  /** `cached`: one snapshot per run (the CLI); `direct`: a request per read (the benchmark's baseline). */
  reads?: 'cached' | 'direct';
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
  /** Each family's own options, under its name. */
  families?: CheckFamilyOptions;
}

/** State shared by every check of one run: the client and the per-run memo. */
export class CheckRun {
  private client?: Promise<KubeClient>;
  private readonly memo = new PromiseMemo({ rememberFailures: true });
  private readonly generations = new Map<number, CheckContext>();

  constructor(readonly options: CheckOptions) {}

  /** The client, built once; a bad kubeconfig fails every caller the same way. */
  kubeClient(): Promise<KubeClient> {
    this.client ??= connectKube(this.options.kube, { timeoutMs: this.options.timeoutMs, timeoutQuery: true, env: this.options.env });
    return this.client;
  }

  /** Run `fn` once for the whole run (failures are remembered too: they would fail the same way again). */
  shared<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.memo.get(key, fn);
  }

  /**
   * The context for a view of the cluster: generation 0 is the first snapshot; retries ask
   * for later generations so they see fresh state, and checks retrying in the same round
   * share one.
   */
  context(generation: number): CheckContext {
    let ctx = this.generations.get(generation);
    if (!ctx) {
      ctx = new CheckContext(this, generation);
      this.generations.set(generation, ctx);
    }
    return ctx;
  }

  /** Release connections of the client, if one was made. */
  async close(): Promise<void> {
    if (!this.client) return;
    try {
      (await this.client).close();
    } catch {
      // the client never came to be
    }
  }
}

/** What a check sees: the options, a reader over one view of the cluster, and memoized facts. */
export class CheckContext {
  private reader?: Promise<ClusterReader>;
  private readonly facts = new PromiseMemo();

  constructor(
    readonly run: CheckRun,
    readonly generation: number,
  ) {}

  get options(): CheckOptions {
    return this.run.options;
  }

  now(): Date {
    return this.options.now?.() ?? new Date();
  }

  client(): Promise<KubeClient> {
    return this.run.kubeClient();
  }

  private view(): Promise<ClusterReader> {
    this.reader ??= this.client().then((c) => (this.options.reads === 'direct' ? new DirectReader(c) : new SnapshotReader(c)));
    // A failed client is not cached here: the run's client promise carries the failure.
    this.reader.catch(() => {
      this.reader = undefined;
    });
    return this.reader;
  }

  async list<R extends ResourceRef>(resource: R, options?: ReadOptions): Promise<Array<ObjectOf<R>>> {
    return (await this.view()).list(resource, options);
  }

  async find<R extends ResourceRef>(resource: R, name: string, namespace?: string): Promise<ObjectOf<R> | undefined> {
    return (await this.view()).find(resource, name, namespace);
  }

  async serverVersion(): Promise<Info> {
    return (await this.view()).serverVersion();
  }

  /** A fact derived from this view of the cluster, computed once (failures are not remembered). */
  fact<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.facts.get(key, fn);
  }

  /** A fact of the whole run (the latest versions, the rendered install manifest). */
  shared<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.run.shared(key, fn);
  }
}
