import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssuer, keyMatchesCertificate, parseCertificates, parsePrivateKey, validateIssuerCredentials } from '../../src/core/pki/index.js';
import { CERTS, parseDocs, pinnedWebhookCredentials } from '../core/install/support.js';
import { runCli } from '../support/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkerd-install-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const certFlags = (set: string, key = `${CERTS}/${set}-key.pem`) => [
  '--identity-trust-anchors-file',
  `${CERTS}/${set}-trust-anchors.pem`,
  '--identity-issuer-certificate-file',
  `${CERTS}/${set}-crt.pem`,
  '--identity-issuer-key-file',
  key,
];

const decode = (s: string) => Buffer.from(s, 'base64').toString('utf8');
type Obj = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: Record<string, unknown> };
const get = (objs: Obj[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name)!;
const configValues = (objs: Obj[]) => yaml.load(get(objs, 'ConfigMap', 'linkerd-config').data!.values) as Record<string, unknown>;

describe('linkerd install --ignore-cluster (CLI)', () => {
  it('prints the control plane as ---separated YAML documents on stdout, nothing on stderr', async () => {
    const r = await runCli(['install', '--ignore-cluster']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('---\n')).toBe(true);
    const docs = parseDocs(r.stdout);
    expect(docs[0].kind).toBe('Namespace');
    expect(docs.at(-1)!.metadata.name).toBe('linkerd-config-overrides');
    expect(docs).toHaveLength(42);
  });

  it('prints one JSON object per line with -o json', async () => {
    const r = await runCli(['install', '--ignore-cluster', '-o', 'json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(42);
    const objs = lines.map((l) => JSON.parse(l) as Obj);
    expect(objs.map((o) => o.kind).slice(0, 2)).toEqual(['Namespace', 'ClusterRole']);
  });

  it('rejects an unknown output format', async () => {
    const r = await runCli(['install', '--ignore-cluster', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: --output supports "yaml" or "json" (got "table")\n');
  });

  it('renders the ten Linkerd CRDs with --crds, and says what to do next on stderr', async () => {
    const r = await runCli(['install', '--crds', '--ignore-cluster']);
    expect(r.code).toBe(0);
    expect(parseDocs(r.stdout).map((d) => d.kind)).toEqual(Array(10).fill('CustomResourceDefinition'));
    expect(r.stderr).toBe('Rendering Linkerd CRDs...\nNext, run `linkerd install | kubectl apply -f -` to install the control plane.\n\n');
    expect(parseDocs((await runCli(['install', '--crds', '--ignore-cluster', '--set', 'installGatewayAPI=true'])).stdout)).toHaveLength(14);
  });

  it('accepts pflag-style booleans: --ha=true and --ha', async () => {
    for (const flag of ['--ha', '--ha=true']) {
      const objs = parseDocs((await runCli(['install', '--ignore-cluster', flag])).stdout) as Obj[];
      expect(get(objs, 'Deployment', 'linkerd-destination').spec!.replicas).toBe(3);
      expect(objs.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(3);
    }
    const off = parseDocs((await runCli(['install', '--ignore-cluster', '--ha=false'])).stdout) as Obj[];
    expect(get(off, 'Deployment', 'linkerd-destination').spec!.replicas).toBe(1);
  });
});

describe('install: supplied certificates (CLI)', () => {
  it('uses the valid set: issuer Secret and trust roots come from the files', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid')]);
    expect(r.stderr).toBe('');
    const objs = parseDocs(r.stdout) as Obj[];
    expect(decode(get(objs, 'Secret', 'linkerd-identity-issuer').data!['crt.pem'])).toBe(readFileSync(`${CERTS}/valid-crt.pem`, 'utf8').trim());
    expect(get(objs, 'ConfigMap', 'linkerd-identity-trust-roots').data!['ca-bundle.crt']).toBe(readFileSync(`${CERTS}/valid-trust-anchors.pem`, 'utf8').trim());
  });

  const a = `--identity-trust-anchors-file ${CERTS}`;
  const c = `--identity-issuer-certificate-file ${CERTS}`;
  const k = `--identity-issuer-key-file ${CERTS}`;
  it.each([
    ['expired', certFlags('expired'), `not valid anymore. Expired on 2021-01-01T00:00:00Z (${c}/expired-crt.pem)`],
    ['not-valid-yet', certFlags('not-valid-yet'), `not valid before: 2099-01-01T00:00:00Z (${c}/not-valid-yet-crt.pem)`],
    ['wrong-algo', certFlags('wrong-algo'), `must use P-256 curve for public key, instead P-384 was used (${c}/wrong-algo-crt.pem)`],
    ['issuer-not-ca', certFlags('issuer-not-ca'), `issuer cert is not a CA (${c}/issuer-not-ca-crt.pem)`],
    [
      'wrong-anchor',
      certFlags('wrong-anchor'),
      `x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "root.linkerd.cluster.local") (${c}/wrong-anchor-crt.pem, ${a}/wrong-anchor-trust-anchors.pem)`,
    ],
    [
      'mismatched key',
      certFlags('valid', `${CERTS}/mismatched-key.pem`),
      `failed to read CA: tls: Public and private key do not match (${k}/mismatched-key.pem, ${c}/valid-crt.pem)`,
    ],
    [
      'a key file that is a certificate',
      certFlags('valid', `${CERTS}/valid-crt.pem`),
      `failed to read CA: unsupported block type: 'CERTIFICATE' (${k}/valid-crt.pem)`,
    ],
  ])('fails on the %s fixture with one line naming the file, exit 1, nothing on stdout', async (_name, flags, reason) => {
    const r = await runCli(['install', '--ignore-cluster', ...flags]);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: failed to validate issuer credentials: ${reason}\n`);
  });

  it('reports a missing file by name', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid').slice(0, 4), '--identity-issuer-key-file', 'nope.pem']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: open nope.pem: no such file or directory\n']);
  });

  it('wants all three files when any is given', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--identity-issuer-certificate-file', `${CERTS}/valid-crt.pem`]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: a trust anchors file must be specified if other credentials are provided\n']);
  });

  it('refuses an external issuer without the cluster', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--identity-external-issuer']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: --ignore-cluster is not supported when --identity-external-issuer=true\n']);
  });
});

describe('install: generated certificates and --identity-trust-anchor-key-out (CLI)', () => {
  it('writes the anchor key (0600) after the render; it signs a new issuer the rendered anchors accept', async () => {
    const out = join(dir, 'anchor.key');
    const r = await runCli(['install', '--ignore-cluster', '--identity-trust-anchor-key-out', out, '--identity-issuer-validity', '48h']);
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const objs = parseDocs(r.stdout) as Obj[];
    const anchorsPem = get(objs, 'ConfigMap', 'linkerd-identity-trust-roots').data!['ca-bundle.crt'];
    const keyPem = readFileSync(out, 'utf8');
    expect(keyMatchesCertificate(parsePrivateKey(keyPem, 'key').keyObject, parseCertificates(anchorsPem, 'anchors')[0])).toBe(true);
    const issuerPem = decode(get(objs, 'Secret', 'linkerd-identity-issuer').data!['crt.pem']);
    const issuer = parseCertificates(issuerPem, 'issuer')[0];
    expect(issuer.notAfter.getTime() - issuer.notBefore.getTime()).toBe(48 * 3600 * 1000 + 20_000);
    const now = new Date();
    const next = await createIssuer({
      anchor: { certPem: anchorsPem, keyPem },
      commonName: 'identity.linkerd.cluster.local',
      notBefore: now,
      notAfter: new Date(now.getTime() + 86_400_000),
    });
    await expect(validateIssuerCredentials({ crtPem: next.certPem, keyPem: next.keyPem, anchorsPem, now })).resolves.toBeDefined();
  });

  it('writes no key file when the render fails', async () => {
    const out = join(dir, 'never.key');
    const r = await runCli(['install', '--ignore-cluster', '--identity-trust-anchor-key-out', out, '--set', 'proxy.logLevel=']);
    expect(r.code).toBe(1);
    expect(() => statSync(out)).toThrow();
  });

  it('refuses --identity-trust-anchor-key-out when the anchors are supplied', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), '--identity-trust-anchor-key-out', join(dir, 'x.key')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: --identity-trust-anchor-key-out needs a generated trust anchor/);
  });

  it('rejects a non-positive validity', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--identity-anchor-validity', '0s']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('Error: --identity-anchor-validity must be a positive duration (got 0s)\n');
  });

  it("rejects a validity Go cannot parse in pflag's words", async () => {
    const r = await runCli(['install', '--ignore-cluster', '--identity-issuer-validity', '1 h']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      'Error: invalid argument "1 h" for "--identity-issuer-validity" flag: time: unknown unit " h" in duration "1 h" (units: d (24h), h, m, s, ms, us (or µs), ns)\n',
    );
  });
});

describe('install: --set / -f precedence (CLI)', () => {
  const logLevel = async (args: string[]) => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), ...args]);
    expect(r.stderr).toBe('');
    return configValues(parseDocs(r.stdout) as Obj[]).controllerLogLevel;
  };

  it('applies flags, then -f files in order, then --set, --set-string and --set-file', async () => {
    const f1 = join(dir, 'one.yaml');
    const f2 = join(dir, 'two.yaml');
    const level = join(dir, 'level.txt');
    writeFileSync(f1, 'controllerLogLevel: debug\n');
    writeFileSync(f2, 'controllerLogLevel: trace\n');
    writeFileSync(level, 'error');
    expect(await logLevel(['--controller-log-level', 'warn'])).toBe('warn');
    expect(await logLevel(['--controller-log-level', 'warn', '-f', f1])).toBe('debug');
    expect(await logLevel(['-f', f1, '-f', f2])).toBe('trace');
    expect(await logLevel(['-f', f2, '-f', f1])).toBe('debug');
    expect(await logLevel(['-f', f1, '--set', 'controllerLogLevel=warn'])).toBe('warn');
    expect(await logLevel(['--set', 'controllerLogLevel=warn', '--set-string', 'controllerLogLevel=info'])).toBe('info');
    expect(await logLevel(['--set-string', 'controllerLogLevel=info', '--set-file', `controllerLogLevel=${level}`])).toBe('error');
  });

  it('reports a bad value with the source that set it', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--set', 'proxy.ports.admin=abc']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^Error: --set: proxy\.ports\.admin: /);
  });

  it('validates the result with linkerd’s messages', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--controller-log-level', 'loud']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: --controller-log-level must be one of: panic, fatal, error, warn, info, debug, trace\n']);
  });
});

describe('install: reproducible renders (CLI)', () => {
  it('prints byte-identical output twice when certificates, webhook certificates and the heartbeat schedule are pinned', async () => {
    const creds = await pinnedWebhookCredentials();
    const pinned = join(dir, 'pinned.yaml');
    const values: Record<string, unknown> = { heartbeatSchedule: '17 3 * * *' };
    for (const [key, c] of Object.entries(creds)) values[key] = { crtPEM: c.certPem, keyPEM: c.keyPem };
    writeFileSync(pinned, yaml.dump(values));
    const args = ['install', '--ignore-cluster', ...certFlags('valid'), '-f', pinned];
    const first = await runCli(args);
    const second = await runCli(args);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const json = await runCli([...args, '-o', 'json']);
    expect((await runCli([...args, '-o', 'json'])).stdout).toBe(json.stdout);
    // Unpinned, the generated credentials differ from run to run.
    expect((await runCli(['install', '--ignore-cluster'])).stdout).not.toBe((await runCli(['install', '--ignore-cluster'])).stdout);
  });
});

describe('install: tracing (CLI)', () => {
  type Pod = { containers: Container[]; initContainers?: Container[]; volumes?: { name: string; downwardAPI?: unknown }[] };
  type Container = { name: string; args?: string[]; env?: { name: string; value?: string }[]; volumeMounts?: { name: string; mountPath: string }[] };
  const podOf = (objs: Obj[], name: string) => (get(objs, 'Deployment', name).spec as { template: { spec: Pod } }).template.spec;
  const proxyOf = (pod: Pod) => [...(pod.initContainers ?? []), ...pod.containers].find((c) => c.name === 'linkerd-proxy')!;
  const env = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;
  const tracing = [
    '--set',
    'proxy.tracing.enabled=true',
    '--set',
    'proxy.tracing.collector.endpoint=jaeger-collector.jaeger-system:4317',
    '--set',
    'proxy.tracing.collector.meshIdentity.serviceAccountName=jaeger',
    '--set',
    'proxy.tracing.collector.meshIdentity.namespace=jaeger-system',
  ];

  it('--set proxy.tracing.*: each control-plane proxy gets the trace env, the podinfo mount and volume; linkerd-config keeps the values', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), ...tracing]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const objs = parseDocs(r.stdout) as Obj[];
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const pod = podOf(objs, name);
      const proxy = proxyOf(pod);
      expect(env(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR')).toBe('jaeger-collector.jaeger-system:4317');
      expect(env(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME')).toBe('jaeger.jaeger-system.serviceaccount.identity.linkerd.cluster.local');
      expect(env(proxy, 'LINKERD2_PROXY_TRACE_PROTOCOL')).toBe('opentelemetry');
      expect(env(proxy, 'LINKERD2_PROXY_TRACE_ANNOTATIONS_PATH')).toBe('/var/run/linkerd/podinfo/annotations');
      expect(proxy.volumeMounts).toContainEqual({ mountPath: '/var/run/linkerd/podinfo', name: 'linkerd-podinfo' });
      expect(pod.volumes!.find((v) => v.name === 'linkerd-podinfo')?.downwardAPI).toBeDefined();
    }
    const proxyValues = (configValues(objs).proxy as { tracing: Record<string, unknown> }).tracing;
    expect(proxyValues.enabled).toBe(true);
    expect(proxyValues.collector).toEqual({
      endpoint: 'jaeger-collector.jaeger-system:4317',
      meshIdentity: { serviceAccountName: 'jaeger', namespace: 'jaeger-system' },
    });
  });

  it('--set proxy.tracing.enabled=true without an endpoint fails with one line, nothing on stdout', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), '--set', 'proxy.tracing.enabled=true']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: proxy.tracing.collector.endpoint must be set if proxy tracing is enabled\n');
  });

  it('--set controlPlaneTracing=true (a key this release dropped) is refused, naming it and what replaces it', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), '--set', 'controlPlaneTracing=true']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: --set: controlPlaneTracing: unknown key (removed in this release; use controller.tracing.enabled)\n');
  });

  it('--set controller.tracing.enabled=true points the controllers at the tracing collector', async () => {
    const r = await runCli(['install', '--ignore-cluster', ...certFlags('valid'), ...tracing, '--set', 'controller.tracing.enabled=true']);
    expect(r.code).toBe(0);
    const pod = podOf(parseDocs(r.stdout) as Obj[], 'linkerd-identity');
    expect(pod.containers.find((c) => c.name === 'identity')!.args).toContain('-trace-collector=jaeger-collector.jaeger-system:4317');
  });
});

describe('install against a cluster (CLI)', () => {
  it('prints the real CLI text, without `Error:`, when the cluster cannot be reached', async () => {
    const r = await runCli(['install']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Unable to install the Linkerd control plane\. Cannot connect to the Kubernetes cluster:\n\n/);
    expect(r.stderr.endsWith('\n\nYou can use the --ignore-cluster flag if you just want to generate the installation config.\n')).toBe(true);
  });
});
