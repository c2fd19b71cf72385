import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderInstall, type InstallRequest } from '../../../src/core/install/index.js';
import { renderCrds } from '../../../templates/crds/index.js';
import { type ApiServer, kubeGlobals, startApiServer } from '../../support/apiserver.js';
import { fixtureText } from './support.js';

const LINKERD_CRDS = renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: false });
const GATEWAY_CRDS = renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: true }).filter((c) =>
  c.metadata!.name!.endsWith('gateway.networking.k8s.io'),
);
const withoutLinkerdAnnotation = GATEWAY_CRDS.map((c) => ({ ...c, metadata: { ...c.metadata, annotations: {} } }));

const request = (server: ApiServer, extra: Partial<InstallRequest> = {}): InstallRequest => ({
  namespace: 'linkerd',
  cluster: kubeGlobals(server),
  crds: false,
  flags: [],
  valuesFiles: [],
  set: [],
  setString: [],
  setFile: [],
  ...extra,
});

const linkerdConfig = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config', namespace: 'linkerd' },
  data: { values: 'linkerdVersion: edge-26.9.1\n' },
};

describe('install against a cluster: pre-checks', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: [...LINKERD_CRDS] });
  });
  afterAll(() => server.stop());
  afterEach(() => server.clearFaults());

  it('renders the control plane when the CRDs are there, reading the API server ports from default/kubernetes', async () => {
    server.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: 16443 }] },
    });
    const result = await renderInstall(request(server));
    const identity = result.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'linkerd-identity') as never as {
      spec: { template: { spec: { initContainers: Array<{ args: string[] }> } } };
    };
    const args = identity.spec.template.spec.initContainers[0].args;
    expect(args[args.indexOf('--outbound-ports-to-ignore') + 1]).toBe('443,16443');
    expect(result.trustAnchorKeyPem).toMatch(/EC PRIVATE KEY/);
  });

  it('lets --set proxyInit.kubeAPIServerPorts win over the cluster ports', async () => {
    const result = await renderInstall(request(server, { set: ['proxyInit.kubeAPIServerPorts=8443'] }));
    expect(JSON.stringify(result.objects)).toContain('"--outbound-ports-to-ignore","8443"');
  });

  it('refuses when linkerd-config already exists, with the real message', async () => {
    server.put(linkerdConfig);
    try {
      await expect(renderInstall(request(server))).rejects.toThrow(
        "Can't install the Linkerd control plane in the 'linkerd' namespace. Reason: ConfigMap/linkerd-config already exists.\nRun the command `linkerd upgrade`, if you are looking to upgrade Linkerd.\n",
      );
      await expect(renderInstall(request(server, { crds: true, set: ['installGatewayAPI=true'] }))).rejects.toThrow('ConfigMap/linkerd-config already exists');
    } finally {
      server.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });

  it('refuses Docker-runtime nodes unless proxyInit.runAsRoot=true', async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'old' }, status: { nodeInfo: { containerRuntimeVersion: 'docker://20.10.7' } } };
    server.put(node);
    try {
      await expect(renderInstall(request(server))).rejects.toThrow(
        'there are nodes using the docker container runtime and proxy-init container must run as root user.\ntry installing linkerd via --set proxyInit.runAsRoot=true',
      );
      await expect(renderInstall(request(server, { set: ['proxyInit.runAsRoot=true'] }))).resolves.toBeDefined();
    } finally {
      server.remove('v1', 'Node', 'old');
    }
  });

  it('reads the external issuer from Secret linkerd-identity-issuer', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    server.put({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
      data: {
        'ca.crt': b64(fixtureText('valid-trust-anchors.pem')),
        'tls.crt': b64(fixtureText('valid-crt.pem')),
        'tls.key': b64(fixtureText('valid-key.pem')),
      },
    });
    try {
      const result = await renderInstall(request(server, { flags: [{ name: 'identity-external-issuer', value: true }] }));
      expect(result.objects.some((o) => o.metadata.name === 'linkerd-identity-issuer')).toBe(false);
      const roots = result.objects.find((o) => o.metadata.name === 'linkerd-identity-trust-roots') as never as { data: Record<string, string> };
      expect(roots.data['ca-bundle.crt']).toBe(fixtureText('valid-trust-anchors.pem').trim());
      server.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' }, data: { 'tls.crt': 'eA==' } });
      await expect(renderInstall(request(server, { flags: [{ name: 'identity-external-issuer', value: true }] }))).rejects.toThrow(
        'key ca.crt containing the trust anchors needs to exist in secret linkerd-identity-issuer if --identity-external-issuer=true',
      );
    } finally {
      server.remove('v1', 'Secret', 'linkerd-identity-issuer', 'linkerd');
    }
  });

  it('needs at least one EndpointSlice when enableEndpointSlices is on (the default)', async () => {
    server.remove('discovery.k8s.io/v1', 'EndpointSlice', 'kubernetes', 'default');
    await expect(renderInstall(request(server))).rejects.toThrow('no EndpointSlice resources exist in the cluster');
    await expect(renderInstall(request(server, { flags: [{ name: 'enable-endpoint-slices', value: false }] }))).resolves.toBeDefined();
  });

  it('reports an unreachable API server with the real message', async () => {
    server.setFault('/version', 'reset');
    await expect(renderInstall(request(server))).rejects.toThrow(
      /^Unable to install the Linkerd control plane\. Cannot connect to the Kubernetes cluster:\n\n.+\n\nYou can use the --ignore-cluster flag if you just want to generate the installation config\.\n$/s,
    );
  });

  it('reports a missing kubeconfig with the same message', async () => {
    await expect(renderInstall(request(server, { cluster: { kubeconfig: '/nonexistent/kubeconfig', asGroup: [] } }))).rejects.toThrow(
      /Cannot connect to the Kubernetes cluster:\n\n.*no such file or directory/,
    );
  });
});

describe('install against a cluster without the Linkerd CRDs', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: LINKERD_CRDS.slice(1) });
  });
  afterAll(() => server.stop());

  it('asks for install --crds first', async () => {
    await expect(renderInstall(request(server))).rejects.toThrow('Linkerd CRDs must be installed first. Run linkerd install with the --crds flag.\n');
  });

  it('also when a CRD lacks its last version', async () => {
    const old = { ...LINKERD_CRDS[0], spec: { ...LINKERD_CRDS[0].spec, versions: LINKERD_CRDS[0].spec.versions.map((v) => ({ ...v, name: 'v1alpha0' })) } };
    server.put(old);
    await expect(renderInstall(request(server))).rejects.toThrow('Linkerd CRDs must be installed first.');
  });
});

describe('install --crds against a cluster: Gateway API detection', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  });
  afterAll(() => server.stop());
  const names = (r: Awaited<ReturnType<typeof renderInstall>>) => r.objects.map((o) => o.metadata.name);

  it('reports missing Gateway API CRDs the way the real CLI does, unless Linkerd is asked to install them', async () => {
    await expect(renderInstall(request(server, { crds: true }))).rejects.toThrow(/Gateway API CRDs must be installed/);
    const result = await renderInstall(request(server, { crds: true, set: ['installGatewayAPI=true'] }));
    expect(names(result)).toHaveLength(14);
    expect(result.notes).toEqual(['Rendering Linkerd CRDs...', 'Next, run `linkerd install | kubectl apply -f -` to install the control plane.', '']);
  });

  it('renders only Linkerd’s CRDs next to external Gateway API CRDs', async () => {
    server.put(...withoutLinkerdAnnotation);
    try {
      const result = await renderInstall(request(server, { crds: true }));
      expect(names(result)).toHaveLength(10);
      await expect(renderInstall(request(server, { crds: true, set: ['installGatewayAPI=true'] }))).rejects.toThrow(/already installed by an external source/);
    } finally {
      for (const c of GATEWAY_CRDS) server.remove('apiextensions.k8s.io/v1', 'CustomResourceDefinition', c.metadata!.name!);
    }
  });

  it('keeps rendering the Gateway API CRDs Linkerd installed', async () => {
    server.put(...GATEWAY_CRDS);
    try {
      expect(names(await renderInstall(request(server, { crds: true })))).toHaveLength(14);
      await expect(renderInstall(request(server, { crds: true, set: ['installGatewayAPI=false'] }))).rejects.toThrow(
        'Linkerd is providing GW API, but your current install configuration will remove it',
      );
    } finally {
      for (const c of GATEWAY_CRDS) server.remove('apiextensions.k8s.io/v1', 'CustomResourceDefinition', c.metadata!.name!);
    }
  });
});
