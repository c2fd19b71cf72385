import { KubeConfig } from '@kubernetes/client-node';
import yaml from 'js-yaml';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { cliContext, renderMulticluster } from '../../../src/families/multicluster/chart/render.js';
import { type ApiServer, startApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { edit, healthyCluster } from '../../core/check/support/clusters.js';

/*
 * The multicluster commands against the loopback API server: what they read, what they print,
 * and their refusals.
 */

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.remote-access.signature';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function linkerdConfig(values: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: yaml.dump(values) } };
}

/** What `multicluster install` renders, as a target cluster holds it once applied (plus a load balancer address). */
function installedTarget(): object[] {
  const objects = renderMulticluster(composeInstallValues({ linkerdNamespace: 'linkerd', cluster: { identityTrustDomain: 'east.example' } }), cliContext());
  return objects
    .filter((o) => ['Namespace', 'ServiceAccount', 'Service', 'CustomResourceDefinition'].includes(o.kind))
    .map((o) => (o.kind === 'Service' ? { ...o, status: { loadBalancer: { ingress: [{ ip: '127.0.0.2' }] } } } : o));
}

function tokenSecret(): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'linkerd-service-mirror-remote-access-default-token',
      namespace: 'linkerd-multicluster',
      annotations: { 'kubernetes.io/service-account.name': 'linkerd-service-mirror-remote-access-default' },
    },
    type: 'kubernetes.io/service-account-token',
    data: { token: b64(TOKEN) },
  };
}

// Stubs end each document with `---`, as the real CLI prints them: the empty last one is no object.
const docs = (text: string) =>
  yaml.loadAll(text).filter((d) => d !== null) as Array<{ kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown }>;

describe('linkerd multicluster (help)', () => {
  it('lists its subcommands, not the deprecated ones, under `multicluster --help` and the alias mc', async () => {
    for (const head of ['multicluster', 'mc']) {
      const r = await runCli([head, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('link-gen    Outputs a Link manifest and credentials for another cluster to mirror services from this one');
      expect(r.stdout).toContain('install     Output Kubernetes configs to install the Linkerd multicluster add-on');
      expect(r.stdout).not.toMatch(/^\s+link\s/m);
    }
  });

  it('is listed by `linkerd --help`', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/^\s+multicluster\s+Manages the multicluster setup for Linkerd$/m);
  });
});

describe('linkerd multicluster install', () => {
  let server: ApiServer;
  beforeAll(async () => {
    // A healthy control plane (the pre-check's linkerd-existence passes), its linkerd-config naming the trust domain.
    const cluster = await healthyCluster({
      values: (v) => Object.assign(v as Record<string, unknown>, { identityTrustDomain: 'west.example', cniEnabled: true }),
    });
    server = await startApiServer({ objects: cluster.objects });
  });
  afterAll(() => server.stop());

  it('renders with --ignore-cluster as the chart does, reading nothing', async () => {
    const r = await runCli(['multicluster', 'install', '--ignore-cluster', '--kubeconfig', server.kubeconfigPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(docs(r.stdout)).toHaveLength(26);
    expect(server.requests).toHaveLength(0);
  });

  it('takes the trust domain and CNI from linkerd-config', async () => {
    const r = await runCli(['multicluster', 'install', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.west.example');
    const ns = docs(r.stdout).find((d) => d.kind === 'Namespace');
    expect(JSON.stringify(ns)).toContain('restricted');
  });

  it('applies --ha, value flags and --set, and -o json', async () => {
    const r = await runCli(['multicluster', 'install', '--ignore-cluster', '--ha', '--gateway-port', '4200', '--set', 'gateway.probe.seconds=9', '-o', 'json']);
    expect(r.code).toBe(0);
    // One JSON document a line, as the real CLI prints them.
    const objects = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; spec?: Record<string, unknown>; metadata: { annotations?: Record<string, string> } });
    expect(objects).toHaveLength(28); // as install_ha.yaml
    const deployment = objects.find((o) => o.kind === 'Deployment');
    expect(deployment?.spec?.replicas).toBe(3);
    const service = objects.find((o) => o.kind === 'Service');
    expect(JSON.stringify(service?.spec)).toContain('"port":4200');
    expect(service?.metadata.annotations?.['mirror.linkerd.io/probe-period']).toBe('9');
  });

  it('--gateway=false drops the gateway objects', async () => {
    const r = await runCli(['multicluster', 'install', '--ignore-cluster', '--gateway=false']);
    expect(r.code).toBe(0);
    expect(docs(r.stdout).some((d) => d.metadata.name === 'linkerd-gateway')).toBe(false);
  });

  it('refuses a cluster without Linkerd with the real pre-check lines, nothing on stdout', async () => {
    const empty = await startApiServer();
    try {
      const r = await runCli(['multicluster', 'install', '--kubeconfig', empty.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`Cannot find Linkerd: configmaps "linkerd-config" not found\nValidate the install with: 'linkerd check'\n`);
    } finally {
      await empty.stop();
    }
  });

  it('--wait bounds the pre-check: a control plane not ready is waited for, then refused; a bad duration names the flag', async () => {
    const cluster = await healthyCluster();
    const pod = cluster.objects.find((o) => o.kind === 'Pod' && o.metadata.name.startsWith('linkerd-destination-'))?.metadata.name ?? '';
    const objects = edit(cluster.objects, 'Pod', pod, (p) => {
      for (const c of (p.status as { containerStatuses: Array<{ ready: boolean }> }).containerStatuses) c.ready = false;
      return p;
    });
    const notReady = await startApiServer({ objects });
    try {
      const r = await runCli(['multicluster', 'install', '--wait', '1s', '--kubeconfig', notReady.kubeconfigPath]);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(
          `^(Waiting for control plane to become available\\n)+Cannot find Linkerd: pod/${pod} container \\S+ is not ready\\nValidate the install with: 'linkerd check'\\n$`,
        ),
      );
      expect(r.code).toBe(1);
    } finally {
      await notReady.stop();
    }
    const bad = await runCli(['multicluster', 'install', '--ignore-cluster', '--wait', '5parsecs']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid argument "5parsecs" for "--wait" flag');
    expect(bad.stdout).toBe('');
  });

  it('names the layer of a bad --set and the flag of a bad value', async () => {
    const a = await runCli(['multicluster', 'install', '--ignore-cluster', '--set', 'gateway.enabeld=false']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('--set: gateway.enabeld: unknown key');
    const b = await runCli(['multicluster', 'install', '--ignore-cluster', '--gateway-port', '70000']);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('invalid argument "70000" for "--gateway-port" flag');
    expect(b.stdout).toBe('');
  });
});

describe('linkerd multicluster: -o other than yaml or json', () => {
  it('is refused in the real words of each command, before any read, nothing on stdout', async () => {
    const cases: Array<[string[], string]> = [
      [['install', '--ignore-cluster'], 'unsupported format xml'],
      [['allow', '--service-account-name', 'x'], 'unsupported format xml'],
      [['uninstall'], 'unsupported format xml'],
      [['unlink', '--cluster-name', 'east'], 'unsupported format: xml'],
      [['link-gen', '--cluster-name', 'east'], 'output format xml not supported'],
    ];
    for (const [args, words] of cases) {
      const r = await runCli(['multicluster', ...args, '-o', 'xml', '--kubeconfig', '/nonexistent/kubeconfig']);
      // (unlink prints its deprecation line first, as the real one does)
      expect([args[0], r.code, r.stdout, r.stderr.split('\n').slice(-2).join('\n')]).toEqual([args[0], 1, '', `Error: ${words}\n`]);
    }
  });
});

describe('linkerd multicluster link-gen', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({
      objects: [linkerdConfig({ identityTrustDomain: 'east.example', clusterDomain: 'cluster.local' }), ...installedTarget(), tokenSecret()],
    });
  });
  afterAll(() => server.stop());

  it('reads the target and prints the two credentials Secrets and the Link', async () => {
    const r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', server.kubeconfigPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = docs(r.stdout);
    expect(out.map((d) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      'Secret/linkerd-multicluster/cluster-credentials-east',
      'Secret/linkerd/cluster-credentials-east',
      'Link/linkerd-multicluster/east',
    ]);
    const spec = out[2]?.spec as Record<string, unknown>;
    expect(spec.gatewayAddress).toBe('127.0.0.2');
    expect(spec.gatewayIdentity).toBe('linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.east.example');
    const kc = new KubeConfig();
    kc.loadFromString(Buffer.from((out[0] as unknown as Secret).data?.kubeconfig ?? '', 'base64').toString('utf8'));
    expect(kc.getCurrentCluster()?.server).toBe(server.url);
    expect(kc.getCurrentUser()?.token).toBe(TOKEN);
    expect(kc.getCurrentCluster()?.caData).toBe(b64(server.caPem));
  });

  it('with --gateway=false reads no gateway Service', async () => {
    server.resetRequests();
    const r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--gateway=false', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(server.requests.some((q) => q.path.includes('/services/'))).toBe(false);
    expect(docs(r.stdout)[2]?.spec).not.toHaveProperty('gatewayAddress');
  });

  it('refuses a missing --cluster-name before any read', async () => {
    server.resetRequests();
    const r = await runCli(['multicluster', 'link-gen', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('you need to specify cluster name');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a gateway Service with no address yet, with the real message', async () => {
    const pending = await startApiServer({
      objects: [linkerdConfig({ identityTrustDomain: 'east.example' }), ...installedTarget().map((o) => ({ ...o, status: {} })), tokenSecret()],
    });
    try {
      const r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', pending.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('gateway linkerd-gateway.linkerd-multicluster has no ingress addresses');
    } finally {
      await pending.stop();
    }
  });

  it("the deprecated link says so on stderr, prints link-gen's objects and the service mirror, and is hidden from help", async () => {
    const r = await runCli(['multicluster', 'link', '--cluster-name', 'east', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Command "link" is deprecated, please use `multicluster link-gen` instead.\n');
    const out = docs(r.stdout);
    expect(out.slice(0, 3).map((d) => d.kind)).toEqual(['Secret', 'Secret', 'Link']);
    expect(out.some((d) => d.kind === 'Deployment' && d.metadata.name === 'linkerd-service-mirror-east')).toBe(true);
    const bad = await runCli(['multicluster', 'link', '--cluster-name', 'east', '--log-level', 'loud', '--kubeconfig', server.kubeconfigPath]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--log-level must be one of: panic, fatal, error, warn, info, debug, trace');
  });

  it('a kubeconfig without the --context is refused in one line', async () => {
    const r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', server.kubeconfigPath, '--context', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('context was not found for specified context: nope');
  });
});

describe('linkerd multicluster allow', () => {
  it('prints the namespace and one remote-access identity, after checking it does not exist', async () => {
    const server = await startApiServer();
    try {
      const r = await runCli(['multicluster', 'allow', '--service-account-name', 'west-access', '--kubeconfig', server.kubeconfigPath]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(docs(r.stdout).map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
        'Namespace/linkerd-multicluster',
        'ClusterRole/west-access',
        'ServiceAccount/west-access',
        'Secret/west-access-token',
        'ClusterRoleBinding/west-access',
      ]);
      expect(server.requests.some((q) => q.path.endsWith('/namespaces/linkerd-multicluster/serviceaccounts/west-access'))).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('refuses an existing service account, and a missing name', async () => {
    const server = await startApiServer({
      objects: [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'west-access', namespace: 'linkerd-multicluster' } }],
    });
    try {
      const r = await runCli(['multicluster', 'allow', '--service-account-name', 'west-access', '--kubeconfig', server.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Service account with name west-access already exists, use --ignore-cluster for force operation');
      const forced = await runCli(['multicluster', 'allow', '--service-account-name', 'west-access', '--ignore-cluster']);
      expect(forced.code).toBe(0);
      const none = await runCli(['multicluster', 'allow', '--ignore-cluster']);
      expect(none.stderr).toContain('you need to specify a service account name');
    } finally {
      await server.stop();
    }
  });
});

describe('linkerd multicluster uninstall', () => {
  it('refuses while a Link exists, naming its cluster', async () => {
    const server = await startApiServer({
      objects: [
        ...installedTarget(),
        {
          apiVersion: 'multicluster.linkerd.io/v1alpha3',
          kind: 'Link',
          metadata: { name: 'east', namespace: 'linkerd-multicluster' },
          spec: { targetClusterName: 'east' },
        },
      ],
    });
    try {
      const r = await runCli(['multicluster', 'uninstall', '--kubeconfig', server.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Please unlink the following clusters before uninstalling multicluster:\n  * east');
    } finally {
      await server.stop();
    }
  });

  it('prints name-only stubs of the extension objects, the CRD and namespace included', async () => {
    const server = await startApiServer({ objects: installedTarget() });
    try {
      const r = await runCli(['multicluster', 'uninstall', '--kubeconfig', server.kubeconfigPath]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const names = docs(r.stdout).map((d) => `${d.kind}/${d.metadata.name}`);
      expect(names).toContain('CustomResourceDefinition/links.multicluster.linkerd.io');
      expect(names.at(-1)).toBe('Namespace/linkerd-multicluster');
    } finally {
      await server.stop();
    }
  });

  it('says so when nothing is installed', async () => {
    const server = await startApiServer();
    try {
      const r = await runCli(['multicluster', 'uninstall', '--kubeconfig', server.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('No resources found to uninstall');
    } finally {
      await server.stop();
    }
  });
});

describe('linkerd multicluster unlink (deprecated)', () => {
  it('prints stubs of what link made, with --only-controller leaving the Link and credentials', async () => {
    const server = await startApiServer({
      objects: [
        ...installedTarget(),
        {
          apiVersion: 'multicluster.linkerd.io/v1alpha3',
          kind: 'Link',
          metadata: { name: 'east', namespace: 'linkerd-multicluster' },
          spec: { targetClusterName: 'east', probeSpec: { path: '/ready' } },
        },
      ],
    });
    try {
      const all = await runCli(['multicluster', 'unlink', '--cluster-name', 'east', '--kubeconfig', server.kubeconfigPath]);
      expect(all.code).toBe(0);
      expect(all.stderr).toContain('Command "unlink" is deprecated, only use for removing service mirror resources');
      const names = docs(all.stdout).map((d) => `${d.kind}/${d.metadata.name}`);
      expect(names).toContain('Service/probe-gateway-east');
      expect(names).toContain('Link/east');
      const only = await runCli(['multicluster', 'unlink', '--cluster-name', 'east', '--only-controller', '--kubeconfig', server.kubeconfigPath]);
      expect(docs(only.stdout).map((d) => d.kind)).not.toContain('Link');
      const missing = await runCli(['multicluster', 'unlink', '--cluster-name', 'west', '--kubeconfig', server.kubeconfigPath]);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
    } finally {
      await server.stop();
    }
  });
});
