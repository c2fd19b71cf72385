import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGoldenFile } from '../../support/golden.js';
import { runCli } from '../../support/cli.js';
import { kubernetesModelFailures } from '../../support/kubernetes-models.js';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown };

const golden = (name: string) => fileURLToPath(new URL(`golden/install-cni-${name}.yaml`, import.meta.url));

const FULLY_CONFIGURED = [
  '--linkerd-version=awesome-linkerd-version.1',
  '--control-port=5190',
  '--admin-port=5191',
  '--inbound-port=5143',
  '--outbound-port=5140',
  '--proxy-uid=12102',
  '--proxy-gid=12102',
  '--cni-image=my-docker-registry.io/awesome/cni-plugin-test-image',
  '--cni-image-version=v1.4.0',
  '--cni-log-level=debug',
  '--dest-cni-net-dir=/etc/kubernetes/cni/net.d',
  '--dest-cni-bin-dir=/opt/my-cni/bin',
  '--priority-class-name=system-node-critical',
  '--redirect-ports=80,8080',
  '--use-wait-flag',
];

/** The variants of linkerd's TestRenderCNIPlugin, run through the command as a user runs it. */
const VARIANTS: [string, string[]][] = [
  ['default', ['--set', 'resources.cpu.limit=1m']],
  ['fully-configured', FULLY_CONFIGURED],
  ['fully-configured-equal-dsts', [...FULLY_CONFIGURED, '--dest-cni-bin-dir=/etc/kubernetes/cni/net.d']],
  ['skip-ports', ['--skip-inbound-ports=80,8080', '--skip-outbound-ports=443,1000']],
  [
    'repair-controller-psp',
    ['--set', 'repairController.enabled=true,enablePSP=true,commonLabels.team=net,podLabels.tier=node', '--registry', 'my.registry.io/linkerd'],
  ],
];

async function render(args: string[]): Promise<{ text: string; objects: Obj[] }> {
  const r = await runCli(['install-cni', ...args]);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return { text: r.stdout, objects: yaml.loadAll(r.stdout) as Obj[] };
}

function find(objects: Obj[], kind: string): Obj & { spec?: any; data?: any } {
  const o = objects.find((x) => x.kind === kind);
  if (!o) throw new Error(`no ${kind}`);
  return o;
}

const networkConfig = (objects: Obj[]) => JSON.parse(find(objects, 'ConfigMap').data.cni_network_config as string) as { linkerd: Record<string, unknown> };

describe('linkerd install-cni', () => {
  for (const [name, args] of VARIANTS) {
    it(`renders the ${name} variant as reviewed, every object valid for its kind`, async () => {
      const { text, objects } = await render(args);
      expectGoldenFile(golden(name), text);
      expect(kubernetesModelFailures(objects)).toEqual([]);
    });
  }

  it('renders the objects the linkerd-cni-plugin checks look for, in the chart order', async () => {
    const { objects } = await render([]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//linkerd-cni',
      'ServiceAccount/linkerd-cni/linkerd-cni',
      'ClusterRole//linkerd-cni',
      'ClusterRoleBinding//linkerd-cni',
      'ConfigMap/linkerd-cni/linkerd-cni-config',
      'DaemonSet/linkerd-cni/linkerd-cni',
    ]);
  });

  it('puts the admin and control ports first among the inbound ports to ignore, whatever --admin-port says', async () => {
    const { objects } = await render(['--admin-port=5191', '--skip-inbound-ports=80,1000-2000']);
    const config = networkConfig(objects);
    expect(config.linkerd['inbound-ports-to-ignore']).toEqual(['4191', '4190', '80', '1000-2000']);
    expect(config.linkerd).not.toHaveProperty('outbound-ports-to-ignore');
    expect(config.linkerd).not.toHaveProperty('proxy-gid');
  });

  it('lets -f and --set win over the flags, as linkerd coalesces user values last', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cni-values-'));
    try {
      const file = path.join(dir, 'values.yaml');
      writeFileSync(file, 'logLevel: warn\ninboundProxyPort: 7000\n');
      const { objects } = await render(['--cni-log-level=debug', '--inbound-port=5143', '-f', file, '--set', 'image.pullPolicy=Always']);
      const config = networkConfig(objects) as { log_level?: string; linkerd: Record<string, unknown> };
      expect(config.log_level).toBe('warn');
      expect(config.linkerd['incoming-proxy-port']).toBe(7000);
      expect(find(objects, 'DaemonSet').spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes LINKERD_DOCKER_REGISTRY for the image registry, and --registry only when it is not the default', async () => {
    const env = await runCli(['install-cni'], { env: { LINKERD_DOCKER_REGISTRY: 'mirror.example/l5d/' } });
    const image = (o: string) => (find(yaml.loadAll(o) as Obj[], 'DaemonSet').spec.template.spec.containers[0] as { image: string }).image;
    expect(image(env.stdout)).toBe('mirror.example/l5d/cni-plugin:v1.6.8');
    const same = await runCli(['install-cni', '--registry', 'cr.l5d.io/linkerd', '--cni-image', 'other.io/x/cni']);
    expect(image(same.stdout)).toBe('other.io/x/cni:v1.6.8');
  });

  it('prints -o json as one object a line, the same objects as the YAML', async () => {
    const json = await runCli(['install-cni', '-o', 'json']);
    const { objects } = await render([]);
    expect(
      json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(objects);
  });

  const REFUSALS: [string[], string][] = [
    [['--linkerd-version', 'bad version'], 'bad version is not a valid version'],
    [['--registry', 'bad registry'], 'bad registry is not a valid Docker registry. The url can contain only letters, numbers, dash, dot, slash and colon'],
    [['--cni-log-level', 'loud'], '--cni-log-level must be one of: panic, fatal, error, warn, info, debug, trace'],
    [['--skip-inbound-ports', '80,90-70'], '"90-70": upper-bound must be greater than or equal to lower-bound'],
    [['--skip-outbound-ports', '1-2-3'], 'ranges expected as <lower>-<upper>'],
    [['--skip-outbound-ports', '70000'], '"70000" is not a valid port nor port-range'],
    [['--redirect-ports', '80,http'], 'invalid argument "80,http" for "--redirect-ports" flag: strconv.ParseUint: parsing "http": invalid syntax'],
    [['--inbound-port', '-1'], 'invalid argument "-1" for "--inbound-port" flag: strconv.ParseUint: parsing "-1": invalid syntax'],
    [['--set', 'iptablesMod=nft'], '--set: iptablesMod: unknown key'],
    [['--set', 'portsToRedirect=all'], 'portsToRedirect: "all" is not a port number'],
    [['-o', 'table'], '--output supports "yaml" or "json" (got "table")'],
  ];
  for (const [args, message] of REFUSALS) {
    it(`refuses ${args.join(' ')} in one line, printing nothing`, async () => {
      const r = await runCli(['install-cni', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`Error: ${message}`);
    });
  }
});

// The loopback API server serves discovery for the built-in kinds and stores what it is given:
// real kubectl maps every kind of the render, a server-side dry run accepts each object, and the
// linkerd-cni-plugin checks then find what install-cni made.
describe('linkerd install-cni, through kubectl and check (loopback API server)', () => {
  let server: import('../../support/apiserver.js').ApiServer;
  let dir: string;
  let manifest: string;
  beforeAll(async () => {
    const { startApiServer } = await import('../../support/apiserver.js');
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    dir = mkdtempSync(path.join(tmpdir(), 'cni-kubectl-'));
    manifest = path.join(dir, 'cni.yaml');
    writeFileSync(manifest, (await runCli(['install-cni'])).stdout);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is accepted by kubectl apply --dry-run=server once its namespace exists, then created', async () => {
    const { kubectl } = await import('../../support/kubectl.js');
    // A dry run does not persist the namespace, so the objects in it are dry-run with the namespace there.
    server.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd-cni' } });
    const namespaced = path.join(dir, 'in-namespace.yaml');
    const docs = (yaml.loadAll(readFileSync(manifest, 'utf8')) as Obj[]).filter((o) => o.kind !== 'Namespace');
    writeFileSync(namespaced, docs.map((o) => `---\n${yaml.dump(o)}`).join(''));
    const dry = await kubectl(server, 'apply', '--dry-run=server', '--validate=false', '-f', namespaced, '-o', 'name');
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    expect(dry.stdout.trim().split('\n')).toHaveLength(5);
    const stored = await kubectl(server, 'get', 'daemonsets', '-A', '-o', 'name');
    expect(stored.stdout).toBe('');
    server.remove('v1', 'Namespace', 'linkerd-cni');
    const created = await kubectl(server, 'create', '--validate=false', '-f', manifest, '-o', 'name');
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(created.stdout.trim().split('\n')).toEqual([
      'namespace/linkerd-cni',
      'serviceaccount/linkerd-cni',
      'clusterrole.rbac.authorization.k8s.io/linkerd-cni',
      'clusterrolebinding.rbac.authorization.k8s.io/linkerd-cni',
      'configmap/linkerd-cni-config',
      'daemonset.apps/linkerd-cni',
    ]);
  });

  it('satisfies check --pre --linkerd-cni-enabled: every linkerd-cni-plugin check passes', async () => {
    const r = await runCli(['check', '--pre', '--linkerd-cni-enabled', '--only', 'linkerd-cni-plugin', '--kubeconfig', server.kubeconfigPath]);
    expect(r.stdout).toContain('linkerd-cni-plugin\n------------------\n');
    for (const d of [
      'cni plugin ConfigMap exists',
      'cni plugin ClusterRole exists',
      'cni plugin ClusterRoleBinding exists',
      'cni plugin ServiceAccount exists',
      'cni plugin DaemonSet exists',
      'cni plugin pod is running on all nodes',
    ]) {
      expect(r.stdout).toContain(`√ ${d}\n`);
    }
    expect(r.stdout).not.toContain('×');
  });
});
