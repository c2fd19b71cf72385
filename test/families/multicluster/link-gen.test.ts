import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { Secret, Service } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { renderManifest } from '../../../src/cli/output/manifest.js';
import { UserError } from '../../../src/core/errors.js';
import { composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { cliContext } from '../../../src/families/multicluster/chart/render.js';
import { gatewayService } from '../../../src/families/multicluster/chart/templates/gateway.js';
import { assertLinkOptions, type DeprecatedLinkOptions } from '../../../src/families/multicluster/link/deprecatedLink.js';
import { type LinkGenOptions, type LinkGenReads, linkGenOptions } from '../../../src/families/multicluster/link/input.js';
import { linkGen } from '../../../src/families/multicluster/link/linkGen.js';
import { labelSelectorFrom } from '../../../src/families/multicluster/link/selector.js';
import { expectGoldenFile } from '../../support/golden.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const VERSION = 'edge-26.9.1';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.remote-access.signature';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The gateway Service exactly as our install renders it, with the address a load balancer gave it. */
function renderedGateway(flags: Record<string, string | number> = {}, set: string[] = []): Service {
  const values = composeInstallValues({ version: VERSION, linkerdNamespace: 'linkerd', flags, set, cluster: { identityTrustDomain: 'east.example' } });
  return { ...gatewayService(values, cliContext()), status: { loadBalancer: { ingress: [{ ip: '127.0.0.2' }] } } };
}

function tokenSecret(name: string, account: string, token?: string): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'linkerd-multicluster', annotations: { 'kubernetes.io/service-account.name': account } },
    type: 'kubernetes.io/service-account-token',
    ...(token === undefined ? {} : { data: { token: b64(token), 'ca.crt': b64('CA') } }),
  };
}

function reads(over: Partial<LinkGenReads> = {}): LinkGenReads {
  return {
    linkerdConfigValues: { identityTrustDomain: 'east.example', clusterDomain: 'cluster.east', proxy: { ports: { outbound: 4140 } } },
    serviceAccount: {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'linkerd-service-mirror-remote-access-default', namespace: 'linkerd-multicluster' },
    },
    tokenSecrets: [
      tokenSecret('other-token', 'someone-else', 'not-this-one'),
      tokenSecret('linkerd-service-mirror-remote-access-default-token', 'linkerd-service-mirror-remote-access-default', TOKEN),
    ],
    kubeconfig: {
      currentContext: 'kind-east',
      context: { cluster: 'kind-east', user: 'kind-east-admin', namespace: 'default' },
      cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n') },
    },
    gatewayService: renderedGateway(),
    ...over,
  };
}

const options = (over: Partial<LinkGenOptions> = {}) => linkGenOptions({ clusterName: 'east', cliVersion: VERSION, ...over });

function kubeconfigOf(secret: Secret): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(Buffer.from(secret.data?.kubeconfig ?? '', 'base64').toString('utf8'));
  return kc;
}

describe('multicluster link-gen output', () => {
  it('prints the two credentials Secrets and the Link (golden)', () => {
    const out = linkGen(reads(), options());
    expect(out.map((o) => `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual([
      'Secret/linkerd-multicluster/cluster-credentials-east',
      'Secret/linkerd/cluster-credentials-east',
      'Link/linkerd-multicluster/east',
    ]);
    expectGoldenFile(path.join(here, 'golden/link_gen_default.yaml'), renderManifest(out, 'yaml'));
  });

  it('the credentials kubeconfig loads with client-node and names the API server and the remote-access token', () => {
    const [mirror, destination] = linkGen(reads(), options({ apiServerAddress: 'https://127.0.0.3:6443' }));
    expect(mirror.type).toBe('mirror.linkerd.io/remote-kubeconfig');
    expect(destination.data).toEqual(mirror.data);
    const kc = kubeconfigOf(mirror);
    expect(kc.getCurrentContext()).toBe('kind-east');
    expect(kc.getCurrentCluster()?.server).toBe('https://127.0.0.3:6443');
    expect(kc.getCurrentCluster()?.caData).toBe(reads().kubeconfig.cluster?.['certificate-authority-data']);
    expect(kc.getCurrentUser()).toMatchObject({ name: 'linkerd-service-mirror-remote-access-default', token: TOKEN });
    expect(kc.getUsers()).toHaveLength(1);
    expect(kc.getContextObject('kind-east')?.namespace).toBe('default');
  });

  it('without --api-server-address the kubeconfig keeps the server of the target context', () => {
    expect(kubeconfigOf(linkGen(reads(), options())[0]).getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
  });

  it('Secret #2 tells the destination controller the target’s trust and cluster domains', () => {
    const [, destination] = linkGen(reads(), options({ linkerdNamespace: 'mesh' }));
    expect(destination.metadata).toMatchObject({
      namespace: 'mesh',
      labels: { 'multicluster.linkerd.io/cluster-name': 'east' },
      annotations: { 'multicluster.linkerd.io/trust-domain': 'east.example', 'multicluster.linkerd.io/cluster-domain': 'cluster.east' },
    });
  });

  it('the Link takes the gateway’s address, port, identity and probe from the Service install rendered', () => {
    const link = linkGen(reads(), options())[2];
    expect(link.spec).toEqual({
      targetClusterName: 'east',
      targetClusterDomain: 'cluster.east',
      targetClusterLinkerdNamespace: 'linkerd',
      clusterCredentialsSecret: 'cluster-credentials-east',
      gatewayAddress: '127.0.0.2',
      gatewayPort: '4143',
      gatewayIdentity: 'linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.east.example',
      probeSpec: { path: '/ready', port: '4191', period: '3s' },
      selector: { matchLabels: { 'mirror.linkerd.io/exported': 'true' } },
      remoteDiscoverySelector: { matchLabels: { 'mirror.linkerd.io/exported': 'remote-discovery' } },
      federatedServiceSelector: { matchLabels: { 'mirror.linkerd.io/federated': 'member' } },
    });
    expect(link.metadata.annotations).toEqual({ 'linkerd.io/created-by': `linkerd/cli ${VERSION}` });
  });

  it('a gateway-less link reads no Service and has no gateway fields, no selector and an empty probe', () => {
    const out = linkGen(reads({ gatewayService: undefined }), options({ gateway: false, selector: 'app=x', gatewayAddresses: '1.2.3.4', gatewayPort: 9 }));
    const spec = out[2].spec;
    expect(spec.probeSpec).toEqual({});
    for (const key of ['gatewayAddress', 'gatewayPort', 'gatewayIdentity', 'selector']) expect(spec).not.toHaveProperty(key);
    expectGoldenFile(path.join(here, 'golden/link_gen_gateway_disabled.yaml'), renderManifest(out, 'yaml'));
  });

  it('a NodePort gateway is linked on its node ports, and --gateway-port replaces the gateway port', () => {
    const service = renderedGateway({ 'gateway-service-type': 'NodePort' }, ['gateway.nodePort=30143', 'gateway.probe.nodePort=30191']);
    const spec = linkGen(reads({ gatewayService: service }), options())[2].spec;
    expect([spec.gatewayPort, spec.probeSpec.port]).toEqual(['30143', '30191']);
    expect(linkGen(reads({ gatewayService: service }), options({ gatewayPort: 31000 }))[2].spec.gatewayPort).toBe('31000');
  });

  it('--gateway-addresses wins over the ingress; hostnames stand in for missing IPs, joined with commas', () => {
    expect(linkGen(reads(), options({ gatewayAddresses: 'a.example,b.example' }))[2].spec.gatewayAddress).toBe('a.example,b.example');
    const service = { ...renderedGateway(), status: { loadBalancer: { ingress: [{ ip: '127.0.0.4' }, { hostname: 'lb.example' }] } } };
    expect(linkGen(reads({ gatewayService: service }), options())[2].spec.gatewayAddress).toBe('127.0.0.4,lb.example');
  });

  it('the probe period annotation is seconds when bare, else a Go duration, printed as Go prints it', () => {
    const withPeriod = (p: string) => {
      const s = renderedGateway();
      return { ...s, metadata: { ...s.metadata, annotations: { ...s.metadata?.annotations, 'mirror.linkerd.io/probe-period': p } } };
    };
    expect(linkGen(reads({ gatewayService: withPeriod('1m') }), options())[2].spec.probeSpec.period).toBe('1m0s');
    expect(() => linkGen(reads({ gatewayService: withPeriod('soon') }), options())).toThrow(
      new UserError('could not parse probe period: time: invalid duration "soon"'),
    );
    expect(() => linkGen(reads({ gatewayService: withPeriod('9'.repeat(20)) }), options())).toThrow(
      new UserError(`could not parse probe period: time: invalid duration "${'9'.repeat(20)}s"`),
    );
    // A hostile target's quarter megabyte of digits is refused in one short line.
    let message = '';
    try {
      linkGen(reads({ gatewayService: withPeriod('9'.repeat(256 * 1024)) }), options());
    } catch (e) {
      message = e instanceof UserError ? e.message : 'not a UserError';
    }
    expect(message).toMatch(/^could not parse probe period: time: invalid duration "9{64}"…$/);
  });

  it('-o json prints one compact object per line, Link fields in the Go struct’s order', () => {
    const lines = renderManifest(linkGen(reads(), options()), 'json').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const link = JSON.parse(lines[2] ?? '') as { spec: object };
    expect(Object.keys(link)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(Object.keys(link.spec).slice(0, 5)).toEqual([
      'targetClusterName',
      'targetClusterDomain',
      'targetClusterLinkerdNamespace',
      'clusterCredentialsSecret',
      'gatewayAddress',
    ]);
  });

  it('exclusions are written only when given', () => {
    const spec = linkGen(reads(), options({ excludedAnnotations: ['evil.linkerd/*', 'evil'], excludedLabels: ['evil'] }))[2].spec;
    expect(spec.excludedAnnotations).toEqual(['evil.linkerd/*', 'evil']);
    expect(spec.excludedLabels).toEqual(['evil']);
  });
});

describe('multicluster link-gen selectors', () => {
  it('equalities are matchLabels, the rest matchExpressions in key order; empty selects nothing as {}', () => {
    expect(labelSelectorFrom('')).toEqual({});
    expect(labelSelectorFrom('tier==web,app in (a, b),!legacy,zone notin (x),env!=dev,owner')).toEqual({
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['a', 'b'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'owner', operator: 'Exists' },
        { key: 'zone', operator: 'NotIn', values: ['x'] },
      ],
    });
  });

  it('refuses what a LabelSelector cannot say, and malformed selectors', () => {
    expect(() => labelSelectorFrom('replicas>1')).toThrow(new UserError('"gt" is not a valid label selector operator'));
    expect(() => labelSelectorFrom('a=(b')).toThrow(/unable to parse requirement/);
  });
});

describe('multicluster link-gen errors', () => {
  it('a missing cluster name is refused first, in each command’s words', () => {
    expect(() => linkGen(reads(), options({ clusterName: '' }))).toThrow(new UserError('you need to specify cluster name'));
    expect(() => linkGen(reads(), options({ clusterName: '' }), 'link')).toThrow(new UserError('You need to specify cluster name'));
  });

  it('a target without Linkerd', () => {
    expect(() => linkGen(reads({ linkerdConfigValues: undefined }), options())).toThrow(
      new UserError('you need Linkerd to be installed on a cluster in order to get its credentials'),
    );
  });

  it('a target without the token Secret, or with an empty one', () => {
    expect(() => linkGen(reads({ tokenSecrets: [tokenSecret('other-token', 'someone-else', 'x')] }), options())).toThrow(
      new UserError('could not find service account token secret for linkerd-service-mirror-remote-access-default'),
    );
    expect(() => linkGen(reads({ tokenSecrets: [tokenSecret('t', 'linkerd-service-mirror-remote-access-default')] }), options())).toThrow(
      new UserError('could not find the token data in service account secret t'),
    );
  });

  it('a kubeconfig without a current context', () => {
    expect(() => linkGen(reads({ kubeconfig: {} }), options())).toThrow(new UserError('could not extract current context from config'));
  });

  it('a gateway with no address yet, or no identity annotation (capitalised by link)', () => {
    const pending = { ...renderedGateway(), status: {} };
    expect(() => linkGen(reads({ gatewayService: pending }), options())).toThrow(
      new UserError('gateway linkerd-gateway.linkerd-multicluster has no ingress addresses'),
    );
    expect(() => linkGen(reads({ gatewayService: pending }), options(), 'link')).toThrow(
      new UserError('Gateway linkerd-gateway.linkerd-multicluster has no ingress addresses'),
    );
    const s = renderedGateway();
    const anonymous = { ...s, metadata: { ...s.metadata, annotations: {} } };
    expect(() => linkGen(reads({ gatewayService: anonymous }), options())).toThrow(
      new UserError('gateway linkerd-gateway.linkerd-multicluster has no mirror.linkerd.io/gateway-identity annotation'),
    );
  });

  it('a gateway Service without its named ports', () => {
    const s = renderedGateway();
    const noProbe = { ...s, spec: { ...s.spec, ports: s.spec?.ports?.filter((p) => p.name !== 'mc-probe') } };
    expect(() => linkGen(reads({ gatewayService: noProbe }), options())).toThrow(new UserError('could not find port with name mc-probe'));
    const noGateway = { ...s, spec: { ...s.spec, ports: s.spec?.ports?.filter((p) => p.name !== 'mc-gateway') } };
    expect(() => linkGen(reads({ gatewayService: noGateway }), options())).toThrow(
      new UserError('gateway service linkerd-gateway has no gateway port named mc-gateway'),
    );
  });
});

describe('multicluster link (deprecated) checks', () => {
  const own: DeprecatedLinkOptions = {
    controlPlaneVersion: VERSION,
    serviceMirrorRetryLimit: 3,
    logLevel: 'info',
    logFormat: 'plain',
    registry: 'cr.l5d.io/linkerd',
    ha: false,
  };

  it('accepts the defaults, and a gateway-less link with the default selector', () => {
    expect(() => assertLinkOptions(options(), own)).not.toThrow();
    expect(() => assertLinkOptions(options({ gateway: false }), own)).not.toThrow();
  });

  it('refuses what link-gen silently ignores, and bad versions, log levels and formats', () => {
    const cases: [Partial<LinkGenOptions>, Partial<DeprecatedLinkOptions>, string][] = [
      [{}, { controlPlaneVersion: 'v1 2' }, 'v1 2 is not a valid version'],
      [{ namespace: '' }, {}, 'you need to specify a namespace'],
      [{}, { logLevel: 'loud' }, '--log-level must be one of: panic, fatal, error, warn, info, debug, trace'],
      [{}, { logFormat: 'xml' }, '--log-format must be one of: plain, json'],
      [{ gateway: false, selector: 'app=x' }, {}, '--selector and --gateway=false are mutually exclusive'],
      [{ gateway: false, gatewayAddresses: '1.2.3.4' }, {}, '--gateway-addresses and --gateway=false are mutually exclusive'],
      [{ gateway: false, gatewayPort: 9 }, {}, '--gateway-port and --gateway=false are mutually exclusive'],
    ];
    for (const [o, d, message] of cases) expect(() => assertLinkOptions(options(o), { ...own, ...d })).toThrow(new UserError(message));
  });
});
