import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { renderManifest } from '../../../src/cli/output/manifest.js';
import { type InstallValueSources, composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { type RenderedObject, cliContext, renderMulticluster } from '../../../src/families/multicluster/chart/render.js';
import { MulticlusterValuesSchema, chartValues } from '../../../src/families/multicluster/chart/values.js';
import { expectGoldenFile } from '../../support/golden.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const VERSION = 'edge-26.9.1';

function render(src: Partial<InstallValueSources> = {}): RenderedObject[] {
  const values = composeInstallValues({ version: VERSION, linkerdNamespace: 'linkerd', ...src });
  return renderMulticluster(values, cliContext());
}

const kindAndName = (objects: readonly RenderedObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`);

/** The 26 objects of upstream's install_default.golden, in order. */
const DEFAULT_OBJECTS = [
  'Namespace/linkerd-multicluster',
  'Deployment/linkerd-gateway',
  'Service/linkerd-gateway',
  'ServiceAccount/linkerd-gateway',
  'Server/linkerd-gateway',
  'AuthorizationPolicy/linkerd-gateway',
  'MeshTLSAuthentication/any-meshed',
  'NetworkAuthentication/source-cluster',
  'ClusterRole/linkerd-service-mirror-remote-access-default',
  'ServiceAccount/linkerd-service-mirror-remote-access-default',
  'Secret/linkerd-service-mirror-remote-access-default-token',
  'ClusterRoleBinding/linkerd-service-mirror-remote-access-default',
  'CustomResourceDefinition/links.multicluster.linkerd.io',
  'Server/linkerd-admin',
  'AuthorizationPolicy/linkerd-admin',
  'Server/service-mirror',
  'AuthorizationPolicy/service-mirror',
  'Server/controller',
  'AuthorizationPolicy/controller',
  'Server/local-service-mirror',
  'AuthorizationPolicy/local-service-mirror',
  'ClusterRole/linkerd-local-service-mirror-access-local-resources',
  'ClusterRoleBinding/linkerd-local-service-mirror-access-local-resources',
  'ServiceAccount/linkerd-local-service-mirror',
  'Deployment/linkerd-local-service-mirror',
  'ClusterRole/linkerd-multicluster-controller-access-local-resources',
];

describe('multicluster install render', () => {
  it('renders the 26 objects of the default install in the real order', () => {
    const objects = render();
    expect(kindAndName(objects)).toEqual(DEFAULT_OBJECTS);
    expectGoldenFile(path.join(here, 'golden/install_default.yaml'), renderManifest(objects, 'yaml'));
  });
});

const find = (objects: readonly RenderedObject[], kind: string, name: string): RenderedObject => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind}/${name}`);
  return o;
};
const gatewayServiceSpec = (objects: readonly RenderedObject[]) => find(objects, 'Service', 'linkerd-gateway').spec as Record<string, unknown>;

describe('multicluster install variants', () => {
  it('renders values.yaml as Helm does: created-by and images name the placeholder version', () => {
    const objects = renderMulticluster(MulticlusterValuesSchema.parse(chartValues()), cliContext());
    expect(objects).toHaveLength(26);
    expect(find(objects, 'Service', 'linkerd-gateway').metadata.annotations?.['linkerd.io/created-by']).toBe('linkerd/helm linkerdVersionValue');
    const mirror = find(objects, 'Deployment', 'linkerd-local-service-mirror') as unknown as Deployment;
    expect(mirror.spec?.template.spec?.containers[0]?.image).toBe('cr.l5d.io/linkerd/controller:linkerdVersionValue');
  });

  it('--ha adds a PDB after each Deployment, one replica down at a time, and anti-affinity (28 objects)', () => {
    const objects = render({ ha: true });
    expect(objects).toHaveLength(28);
    const names = kindAndName(objects);
    expect(names.indexOf('PodDisruptionBudget/linkerd-gateway')).toBe(names.indexOf('Deployment/linkerd-gateway') + 1);
    expect(names.indexOf('PodDisruptionBudget/linkerd-local-service-mirror')).toBe(names.indexOf('Deployment/linkerd-local-service-mirror') + 1);
    const gateway = find(objects, 'Deployment', 'linkerd-gateway') as unknown as Deployment;
    expect(gateway.spec?.replicas).toBe(3);
    expect(gateway.spec?.strategy).toEqual({ rollingUpdate: { maxUnavailable: 1 } });
    const required = gateway.spec?.template.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0];
    expect(required?.labelSelector?.matchExpressions).toEqual([{ key: 'app', operator: 'In', values: ['linkerd-gateway'] }]);
    expect(required?.topologyKey).toBe('kubernetes.io/hostname');
    const mirror = find(objects, 'Deployment', 'linkerd-local-service-mirror') as unknown as Deployment;
    expect(
      mirror.spec?.template.spec?.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.podAffinityTerm.labelSelector
        ?.matchExpressions,
    ).toEqual([{ key: 'component', operator: 'In', values: ['local-service-mirror'] }]);
    expectGoldenFile(path.join(here, 'golden/install_ha.yaml'), renderManifest(objects, 'yaml'));
  });

  it('a user value wins over --ha (values-ha.yaml is merged under -f/--set)', () => {
    const gateway = find(render({ ha: true, set: ['gateway.replicas=2'] }), 'Deployment', 'linkerd-gateway') as unknown as Deployment;
    expect(gateway.spec?.replicas).toBe(2);
  });

  it('enablePSP adds the psp Role and RoleBinding after the gateway policy (28 objects; 30 with upstream HA values)', () => {
    const objects = render({ set: ['enablePSP=true'] });
    expect(objects).toHaveLength(28);
    const names = kindAndName(objects);
    expect(names.slice(8, 10)).toEqual(['Role/psp', 'RoleBinding/linkerd-multicluster-psp']);
    const binding = find(objects, 'RoleBinding', 'linkerd-multicluster-psp');
    expect(binding.metadata.labels).toEqual({ 'linkerd.io/extension': 'multicluster', namespace: 'linkerd-multicluster' });
    expect((binding.subjects as { name: string }[]).map((s) => s.name)).toEqual(['linkerd-gateway', 'namespace-metadata']);
    expect((find(objects, 'Role', 'psp').rules as { resourceNames: string[] }[])[0]?.resourceNames).toEqual(['linkerd-linkerd-control-plane']);
    expectGoldenFile(path.join(here, 'golden/install_psp.yaml'), renderManifest(objects, 'yaml'));
    expect(render({ set: ['enablePSP=true', 'gateway.replicas=3', 'enablePodAntiAffinity=true'] })).toHaveLength(30);
  });

  it('--gateway=false drops the 7 gateway objects (19 objects)', () => {
    const objects = render({ flags: { gateway: false } });
    expect(objects).toHaveLength(19);
    expect(kindAndName(objects)).toEqual(DEFAULT_OBJECTS.filter((_, i) => i < 1 || i > 7));
    expectGoldenFile(path.join(here, 'golden/install_gateway_disabled.yaml'), renderManifest(objects, 'yaml'));
  });

  it('--service-mirror-credentials=false drops the remote-access objects (22 objects)', () => {
    const names = kindAndName(render({ flags: { 'service-mirror-credentials': false } }));
    expect(names).toHaveLength(22);
    expect(names.some((n) => n.includes('remote-access'))).toBe(false);
  });

  it('renders one remote-access set per name of a comma list', () => {
    const names = kindAndName(render({ set: ['remoteMirrorServiceAccountName=east-access\\,west-access'] }));
    expect(names.filter((n) => n.startsWith('Secret/'))).toEqual(['Secret/east-access-token', 'Secret/west-access-token']);
    expect(names).toHaveLength(30);
  });

  it('a health-check node port is set with externalTrafficPolicy Local on a LoadBalancer (upstream install_healthcheck_nodeport)', () => {
    const objects = render({ flags: { 'gateway-healthcheck-nodeport': 30000 }, set: ['gateway.serviceExternalTrafficPolicy=Local'] });
    expect(objects).toHaveLength(26);
    const spec = gatewayServiceSpec(objects);
    expect(spec).toMatchObject({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 });
    expectGoldenFile(path.join(here, 'golden/install_healthcheck_nodeport.yaml'), renderManifest(objects, 'yaml'));
  });

  it('NodePort gateways get the node ports asked for; ClusterIP gateways never do', () => {
    const set = ['gateway.nodePort=30143', 'gateway.probe.nodePort=30191'];
    const nodePort = gatewayServiceSpec(render({ flags: { 'gateway-service-type': 'NodePort', 'gateway-healthcheck-nodeport': 30000 }, set }));
    expect(nodePort.type).toBe('NodePort');
    expect(nodePort.ports).toEqual([
      { name: 'mc-gateway', port: 4143, protocol: 'TCP', nodePort: 30143 },
      { name: 'mc-probe', port: 4191, protocol: 'TCP', nodePort: 30191 },
    ]);
    expect(nodePort.healthCheckNodePort).toBe(30000);
    const clusterIP = gatewayServiceSpec(render({ flags: { 'gateway-service-type': 'ClusterIP', 'gateway-healthcheck-nodeport': 30000 }, set }));
    expect(clusterIP.ports).toEqual([
      { name: 'mc-gateway', port: 4143, protocol: 'TCP' },
      { name: 'mc-probe', port: 4191, protocol: 'TCP' },
    ]);
    expect(clusterIP).not.toHaveProperty('healthCheckNodePort');
  });

  it('the gateway flags set port, probe port and period, and the identity names -L and the trust domain', () => {
    const objects = render({
      linkerdNamespace: 'mesh',
      cluster: { identityTrustDomain: 'example.org' },
      flags: { 'gateway-port': 5143, 'gateway-probe-port': 5191, 'gateway-probe-seconds': 7 },
    });
    const service = find(objects, 'Service', 'linkerd-gateway');
    expect(service.metadata.annotations).toMatchObject({
      'mirror.linkerd.io/gateway-identity': 'linkerd-gateway.linkerd-multicluster.serviceaccount.identity.mesh.example.org',
      'mirror.linkerd.io/probe-period': '7',
    });
    expect((gatewayServiceSpec(objects).ports as { port: number }[]).map((p) => p.port)).toEqual([5143, 5191]);
    const gateway = find(objects, 'Deployment', 'linkerd-gateway') as unknown as Deployment;
    expect(gateway.spec?.template.metadata?.annotations?.['config.linkerd.io/proxy-require-identity-inbound-ports']).toBe('5143');
  });

  it('controllers: entries get Deployments, then PDBs, then probe Services, then RBAC per entry', () => {
    const objects = render({
      set: [
        'controllers[0].link.ref.name=east',
        'controllers[1].link.ref.name=west',
        'controllers[1].gateway.enabled=false',
        'controllers[1].logLevel=debug',
        'controllers[1].enableHeadlessServices=true',
      ],
    });
    expect(kindAndName(objects).slice(26)).toEqual([
      'Deployment/controller-east',
      'Deployment/controller-west',
      'Service/probe-east',
      'ServiceAccount/controller-east',
      'ClusterRoleBinding/linkerd-multicluster-controller-access-local-resources-east',
      'Role/controller-read-remote-creds-east',
      'RoleBinding/controller-read-remote-creds-east',
      'ServiceAccount/controller-west',
      'ClusterRoleBinding/linkerd-multicluster-controller-access-local-resources-west',
      'Role/controller-read-remote-creds-west',
      'RoleBinding/controller-read-remote-creds-west',
    ]);
    const west = find(objects, 'Deployment', 'controller-west') as unknown as Deployment;
    expect(west.spec?.template.spec?.containers[0]?.args).toEqual([
      'service-mirror',
      '-log-level=debug',
      '-log-format=plain',
      '-event-requeue-limit=3',
      '-namespace=linkerd-multicluster',
      '-enable-headless-services',
      '-enable-pprof=false',
      '-probe-service=probe-west',
      'west',
    ]);
    expect(west.spec?.template.spec?.containers[0]?.image).toBe(`cr.l5d.io/linkerd/controller:${VERSION}`);
    expectGoldenFile(path.join(here, 'golden/install_controllers.yaml'), renderManifest(objects, 'yaml'));
  });

  it('--ha gives controllers a PDB but no anti-affinity (the PDB falls back to the top-level switch)', () => {
    const objects = render({ ha: true, set: ['controllers[0].link.ref.name=east'] });
    expect(kindAndName(objects)).toContain('PodDisruptionBudget/controller-east');
    const east = find(objects, 'Deployment', 'controller-east') as unknown as Deployment;
    expect(east.spec?.template.spec?.affinity).toBeUndefined();
    const anti = find(
      render({ set: ['controllers[0].link.ref.name=east', 'controllerDefaults.enablePodAntiAffinity=true'] }),
      'Deployment',
      'controller-east',
    ) as unknown as Deployment;
    expect(
      anti.spec?.template.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector?.matchExpressions?.[0]?.key,
    ).toBe('mirror.linkerd.io/cluster-name');
  });

  it('commonLabels reach every object but the Namespace and the mirrors’ PDBs, as in the chart', () => {
    const objects = render({ ha: true, set: ['commonLabels.team=mesh', 'controllers[0].link.ref.name=east'] });
    const without = objects.filter((o) => o.metadata.labels?.team !== 'mesh').map((o) => `${o.kind}/${o.metadata.name}`);
    expect(without).toEqual(['Namespace/linkerd-multicluster', 'PodDisruptionBudget/linkerd-local-service-mirror', 'PodDisruptionBudget/controller-east']);
  });

  it('with the CNI plugin the namespace is restricted', () => {
    const ns = render({ cluster: { cniEnabled: true } })[0];
    expect(ns?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('LINKERD_DOCKER_REGISTRY moves the local mirror and the controllers the user names, not the pause image', () => {
    const objects = render({
      registry: 'registry.example/mirror',
      set: ['controllers[0].link.ref.name=east', 'controllers[0].image.name=ghcr.io/acme/controller'],
    });
    const image = (name: string) => (find(objects, 'Deployment', name) as unknown as Deployment).spec?.template.spec?.containers[0]?.image;
    expect(image('linkerd-local-service-mirror')).toBe(`registry.example/mirror/controller:${VERSION}`);
    expect(image('controller-east')).toBe(`registry.example/mirror/controller:${VERSION}`);
    expect(image('linkerd-gateway')).toBe('registry.k8s.io/pause:3.2');
  });

  it('-o json prints one object per line, the same objects', () => {
    const objects = render();
    const lines = renderManifest(objects, 'json').trimEnd().split('\n');
    expect(lines).toHaveLength(26);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(JSON.parse(JSON.stringify(objects)));
  });
});

describe('multicluster install values errors', () => {
  it('a controllers entry without link.ref.name fails in the chart’s words', () => {
    expect(() => render({ set: ['controllers[0].link.ref.name=east', 'controllers[1].replicas=2'] })).toThrow(
      new UserError('controllers[1]: the value link.ref.name is required'),
    );
  });

  it('a misspelt key is an error naming it, not a no-op', () => {
    expect(() => render({ set: ['gateway.enabeld=false'] })).toThrow(/^--set: gateway\.enabeld: /);
  });

  it('a value of the wrong type names its path', () => {
    expect(() => render({ set: ['gateway.port=http'] })).toThrow(/^--set: gateway\.port: /);
  });

  it('the gateway’s grace period is a number of seconds, given as a number or digits', () => {
    const grace = (src: Partial<InstallValueSources>) =>
      (find(render(src), 'Deployment', 'linkerd-gateway') as unknown as Deployment).spec?.template.spec?.terminationGracePeriodSeconds;
    expect(grace({})).toBeUndefined();
    expect(grace({ set: ['gateway.terminationGracePeriodSeconds=30'] })).toBe(30);
    expect(grace({ setString: ['gateway.terminationGracePeriodSeconds=45'] })).toBe(45);
    expect(() => render({ setString: ['gateway.terminationGracePeriodSeconds=soon'] })).toThrow(/^--set-string: gateway\.terminationGracePeriodSeconds: /);
  });

  it('a flag out of range is refused with the flag named', () => {
    expect(() => render({ flags: { 'gateway-port': 70000 } })).toThrow(/"--gateway-port"/);
  });
});

describe('multicluster chart declaration', () => {
  it('declares the schema, the defaults of this release, the install flags and its templates', async () => {
    const { multiclusterChart } = await import('../../../src/families/multicluster/chart/chart.js');
    const d = multiclusterChart.defaults();
    expect(multiclusterChart.schema.parse(d)).toEqual(d);
    expect(d.cliVersion).toMatch(/^linkerd\/cli /);
    expect(multiclusterChart.flagSets.install.map((f) => f.name)).toEqual([
      'gateway',
      'gateway-port',
      'gateway-probe-seconds',
      'gateway-probe-port',
      'service-mirror-credentials',
      'gateway-service-type',
      'gateway-healthcheck-nodeport',
    ]);
    const { render } = await multiclusterChart.templates();
    expect(render(d, cliContext())).toHaveLength(26);
  });
});

describe('multicluster install cluster reads', () => {
  it('takes the trust domain, outbound port and CNI from linkerd-config', async () => {
    const { clusterFactsFrom } = await import('../../../src/families/multicluster/chart/clusterFacts.js');
    const facts = clusterFactsFrom({ identityTrustDomain: 'west.example', cniEnabled: true, proxy: { ports: { outbound: 4150 } } });
    expect(facts).toEqual({ identityTrustDomain: 'west.example', proxyOutboundPort: 4150, cniEnabled: true });
    const objects = render({ cluster: facts });
    expect(find(objects, 'Service', 'linkerd-gateway').metadata.annotations?.['mirror.linkerd.io/gateway-identity']).toMatch(/\.west\.example$/);
    expect(clusterFactsFrom({ identityTrustDomain: 7, proxy: 'odd' })).toEqual({});
    expect(() => clusterFactsFrom(undefined)).toThrow(new UserError('you need Linkerd to be installed in order to install multicluster addons'));
  });
});
