import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Document } from 'yaml';
import type { InjectSettings } from '../../../src/core/inject/inject.js';
import { proxySettings } from '../../../src/core/inject/settings.js';
import { defaultValues } from '../../../src/core/values/defaults.js';
import type { SetFlag } from '../../../src/core/values/flags.js';
import { ANCHORS, ROOT } from './support.js';

/*
 * Generated manifests (every kind inject knows, and others), written in varied layouts with
 * comments and blank lines, and the settings they are injected with: shared by the property and
 * the fast-path tests.
 */

export const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Pod'];
export const OTHERS = ['ConfigMap', 'Secret', 'ServiceAccount', 'Ingress'];

const dns = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const labelMap = fc.dictionary(fc.constantFrom('app', 'tier', 'team', 'example.com/owner', 'version'), dns, { minKeys: 1, maxKeys: 3 });
const annotationMap = fc.dictionary(
  fc.constantFrom('prometheus.io/scrape', 'example.com/note', 'checksum/config'),
  fc.oneof(dns, fc.constantFrom('true', '8080', 'yes', 'a: b')),
  { minKeys: 1, maxKeys: 2 },
);

const container = fc.record(
  {
    name: dns,
    image: fc.tuple(dns, fc.constantFrom('1.0', 'latest', '2.3.4')).map(([n, t]) => `ghcr.io/example/${n}:${t}`),
    ports: fc.uniqueArray(fc.integer({ min: 1, max: 65535 }), { minLength: 1, maxLength: 3 }).map((ps) => ps.map((containerPort) => ({ containerPort }))),
    env: fc.array(fc.record({ name: fc.stringMatching(/^[A-Z][A-Z_]{0,8}$/), value: fc.oneof(dns, fc.constantFrom('0777', 'on', '1.5')) }), {
      minLength: 1,
      maxLength: 2,
    }),
    resources: fc.record({ requests: fc.record({ cpu: fc.constantFrom('10m', '1'), memory: fc.constantFrom('64Mi', '1Gi') }) }),
    readinessProbe: fc.record({ httpGet: fc.record({ path: fc.constant('/ready'), port: fc.integer({ min: 1, max: 65535 }) }) }),
  },
  { requiredKeys: ['name', 'image'] },
);

const podSpec = fc.record(
  {
    containers: fc.uniqueArray(container, { minLength: 1, maxLength: 3, selector: (c) => c.name }),
    initContainers: fc.array(
      fc.record(
        { name: dns.map((n) => `init-${n}`), image: fc.constant('busybox:1.36'), restartPolicy: fc.constant('Always') },
        { requiredKeys: ['name', 'image'] },
      ),
      { minLength: 1, maxLength: 1 },
    ),
    volumes: fc.array(fc.record({ name: dns.map((n) => `vol-${n}`), emptyDir: fc.constant({}) }), { minLength: 1, maxLength: 2 }),
    serviceAccountName: dns,
  },
  { requiredKeys: ['containers'] },
);

// An empty `metadata: {}` that injection fills comes back absent, not empty, after uninject, so the
// generator leaves pod metadata out or gives it labels.
const podTemplate = fc.record(
  { metadata: fc.record({ labels: labelMap, annotations: annotationMap }, { requiredKeys: ['labels'] }), spec: podSpec },
  { requiredKeys: ['spec'] },
);

const metadata = fc.record({ name: dns, namespace: dns, labels: labelMap, annotations: annotationMap }, { requiredKeys: ['name'] });

const workload = fc.tuple(fc.constantFrom(...WORKLOADS), metadata, podTemplate).map(([kind, meta, tmpl]) => {
  if (kind === 'Pod') return { apiVersion: 'v1', kind, metadata: meta, spec: tmpl.spec };
  const apiVersion = kind === 'Job' || kind === 'CronJob' ? 'batch/v1' : kind === 'ReplicationController' ? 'v1' : 'apps/v1';
  if (kind === 'CronJob') return { apiVersion, kind, metadata: meta, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: tmpl } } } };
  return { apiVersion, kind, metadata: meta, spec: { replicas: 1, template: tmpl } };
});

const other = fc
  .tuple(fc.constantFrom(...OTHERS, 'Namespace', 'Service'), metadata, fc.dictionary(dns, dns, { maxKeys: 2 }))
  .map(([kind, meta, data]) =>
    kind === 'Service' ? { apiVersion: 'v1', kind, metadata: meta, spec: { ports: [{ port: 80 }] } } : { apiVersion: 'v1', kind, metadata: meta, data },
  );

const layout = fc.record({ indent: fc.constantFrom(2, 4), indentSeq: fc.boolean() });

/** A multi-document manifest in one layout, with comment lines and blank lines sprinkled in. */
export const manifest = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: workload }, { weight: 1, arbitrary: other }), { minLength: 1, maxLength: 4 }),
    layout,
    fc.array(fc.nat(), { maxLength: 6 }),
  )
  .map(([objects, opts, noise]) => {
    const docs = objects.map((o) => new Document(o, { version: '1.1' }).toString({ ...opts, lineWidth: 0 }));
    let text = docs.map((d, i) => (i === 0 ? d : `---\n${d}`)).join('');
    const lines = text.split('\n');
    for (const n of noise) {
      const at = n % lines.length;
      const indent = /^ */.exec(lines[at])![0];
      lines.splice(at, 0, n % 3 === 0 ? '' : `${indent}# note ${n}`);
    }
    text = lines.join('\n');
    return { text, count: objects.length, kinds: objects.map((o) => o.kind) };
  });

export const base = defaultValues();
base.identityTrustAnchorsPEM = readFileSync(`${ROOT}${ANCHORS}`, 'utf8');

export const FLAG_SETS: SetFlag[][] = [
  [],
  [
    { name: 'opaque-ports', value: ['8080'] },
    { name: 'skip-outbound-ports', value: ['3306'] },
  ],
  [
    { name: 'proxy-cpu-request', value: '100m' },
    { name: 'proxy-memory-limit', value: '250Mi' },
  ],
  [{ name: 'native-sidecar', value: false }],
];

export function settings(manual: boolean, flags: SetFlag[], from = base): InjectSettings {
  return { manual, ...proxySettings({ base: from, flags }), controlPlaneNamespace: 'linkerd', createdBy: 'linkerd/cli test', defaultNamespace: 'default' };
}

/** A cluster configured for the classic layout and the CNI plugin (no flags, so no config annotations). */
export const classicCni = (() => {
  const v = structuredClone(base);
  v.proxy.nativeSidecar = false;
  v.cniEnabled = true;
  return v;
})();

/** A cluster whose proxies export traces: trace variables, the podinfo mount and volume. */
export const traced = (() => {
  const v = structuredClone(base);
  v.proxy.tracing.enabled = true;
  v.proxy.tracing.collector.endpoint = 'collector.tracing:4317';
  v.proxy.tracing.collector.meshIdentity = { serviceAccountName: 'collector', namespace: 'tracing' };
  return v;
})();

export const SETTINGS = [...FLAG_SETS.flatMap((f) => [settings(false, f), settings(true, f)]), settings(true, [], traced)];
