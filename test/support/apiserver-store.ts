import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import yaml from 'js-yaml';
import { BUILTIN_SERVED, resourcesOfCrd, type ServedResource } from './apiserver-resources.js';

/** A stored Kubernetes object (plain JSON). */
export type StoredObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [field: string]: unknown;
};

/** RFC 3339 without fractional seconds, as Kubernetes writes timestamps. */
export function kubeTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/**
 * Fixture strings `${now}`, `${now-6m}`, `${now+1h30m}` become timestamps relative to load
 * time, so snapshots with heartbeats and certificate-like dates never go stale.
 */
export function resolveTimePlaceholders<T>(value: T, now: Date): T {
  if (typeof value === 'string') {
    const m = value.match(/^\$\{now(?:([+-])((?:\d+[dhms])+))?\}$/);
    if (!m) return value;
    let offset = 0;
    for (const [, n, unit] of (m[2] ?? '').matchAll(/(\d+)([dhms])/g)) offset += Number(n) * UNIT_MS[unit];
    return kubeTime(new Date(now.getTime() + (m[1] === '-' ? -offset : offset))) as T;
  }
  if (Array.isArray(value)) return value.map((v) => resolveTimePlaceholders(v, now)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveTimePlaceholders(v, now);
    return out as T;
  }
  return value;
}

/** Parse multi-document YAML (text or a file path) into objects; `List` kinds are flattened. */
export function parseYamlObjects(source: string): StoredObject[] {
  const isPath = !source.includes('\n') && /\.(ya?ml|json)$/.test(source.trim());
  const text = isPath ? fs.readFileSync(source.trim(), 'utf8') : source;
  const out: StoredObject[] = [];
  const visit = (doc: unknown) => {
    if (!doc || typeof doc !== 'object') return;
    const o = doc as { kind?: string; items?: unknown[] };
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) o.items.forEach(visit);
    else out.push(doc as StoredObject);
  };
  yaml.loadAll(text, visit);
  return out;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** An in-memory etcd: objects by resource, namespace and name, with a global resourceVersion. */
export class ObjectStore {
  private readonly byResource = new Map<string, Map<string, StoredObject>>();
  private servedCache?: ServedResource[];
  resourceVersion = 1000;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Everything served: built-ins plus the versions of stored CRDs. */
  served(): ServedResource[] {
    if (!this.servedCache) {
      const crds = [...(this.byResource.get('apiextensions.k8s.io/customresourcedefinitions')?.values() ?? [])];
      this.servedCache = [...BUILTIN_SERVED, ...crds.flatMap(resourcesOfCrd)];
    }
    return this.servedCache;
  }

  byPlural(group: string, version: string, plural: string): ServedResource | undefined {
    return this.served().find((r) => r.group === group && r.version === version && r.plural === plural);
  }

  byKind(apiVersion: string, kind: string): ServedResource | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    return this.served().find((r) => r.group === group && r.version === version && r.kind === kind);
  }

  /** Fill in what the API server would: namespace defaulting, uid, resourceVersion, creationTimestamp. */
  normalize(res: ServedResource, obj: StoredObject, namespace?: string): StoredObject {
    const meta = { ...(obj.metadata ?? {}) };
    if (!meta.name && typeof meta.generateName === 'string') meta.name = `${meta.generateName}${randomUUID().slice(0, 5)}`;
    if (res.namespaced) meta.namespace = namespace ?? meta.namespace ?? 'default';
    else delete meta.namespace;
    meta.uid ??= randomUUID();
    meta.creationTimestamp ??= kubeTime(this.now());
    meta.resourceVersion = String(this.resourceVersion + 1);
    return { ...obj, metadata: meta };
  }

  /** Store (create or replace) an object; its kind must be served (load CRDs first). */
  put(input: StoredObject, namespace?: string): StoredObject {
    const obj = resolveTimePlaceholders(input, this.now());
    if (!obj.apiVersion || !obj.kind) throw new Error(`object without apiVersion/kind: ${JSON.stringify(obj).slice(0, 120)}`);
    const res = this.byKind(obj.apiVersion, obj.kind);
    if (!res) throw new Error(`no matches for kind "${obj.kind}" in version "${obj.apiVersion}"`);
    const stored = this.normalize(res, obj, namespace);
    this.resourceVersion++;
    this.bucket(res, true).set(this.key(stored.metadata.namespace, stored.metadata.name), stored);
    if (res.kind === 'CustomResourceDefinition') this.servedCache = undefined;
    return stored;
  }

  /** Load objects in an order that works: CRDs before the custom resources they define. */
  putAll(objects: StoredObject[]): void {
    const isCrd = (o: StoredObject) => o.kind === 'CustomResourceDefinition';
    for (const o of objects.filter(isCrd)) this.put(o);
    for (const o of objects.filter((o) => !isCrd(o))) this.put(o);
  }

  get(res: ServedResource, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.bucket(res, false)?.get(this.key(res.namespaced ? namespace : undefined, name));
  }

  /** Objects of a resource (in one namespace, or all), in etcd key order. */
  list(res: ServedResource, namespace?: string): StoredObject[] {
    const all = [...(this.bucket(res, false)?.values() ?? [])];
    const selected = res.namespaced && namespace !== undefined ? all.filter((o) => o.metadata.namespace === namespace) : all;
    return selected.sort((a, b) => (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') || a.metadata.name.localeCompare(b.metadata.name));
  }

  delete(res: ServedResource, namespace: string | undefined, name: string): StoredObject | undefined {
    const bucket = this.bucket(res, false);
    const k = this.key(res.namespaced ? namespace : undefined, name);
    const obj = bucket?.get(k);
    if (obj) {
      bucket!.delete(k);
      this.resourceVersion++;
      if (res.kind === 'CustomResourceDefinition') this.servedCache = undefined;
    }
    return obj;
  }

  private key(namespace: string | undefined, name: string): string {
    return `${namespace ?? ''}/${name}`;
  }

  private bucket(res: ServedResource, create: true): Map<string, StoredObject>;
  private bucket(res: ServedResource, create: false): Map<string, StoredObject> | undefined;
  private bucket(res: ServedResource, create: boolean): Map<string, StoredObject> | undefined {
    const k = `${res.group}/${res.plural}`;
    let b = this.byResource.get(k);
    if (!b && create) this.byResource.set(k, (b = new Map()));
    return b;
  }
}
