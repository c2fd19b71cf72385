import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { describe, expect, it } from 'vitest';
import { renderManifest } from '../../../src/cli/output/manifest.js';
import { renderLinkChart } from '../../../src/families/multicluster/link-chart/render.js';
import { type LinkChartFlags, composeLinkChartValues } from '../../../src/families/multicluster/link-chart/values.js';
import { type DeprecatedLinkOptions, deprecatedLinkOutput } from '../../../src/families/multicluster/link/deprecatedLink.js';
import { linkGenOptions } from '../../../src/families/multicluster/link/input.js';
import { kubernetesModelFailures } from '../../support/kubernetes-models.js';
import { expectGoldenFile } from '../../support/golden.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const VERSION = 'edge-26.9.1';
const FLAGS: LinkChartFlags = {
  clusterName: 'test-cluster',
  gateway: true,
  serviceMirrorRetryLimit: 3,
  logLevel: 'info',
  logFormat: 'plain',
  controlPlaneVersion: '',
  registry: 'cr.l5d.io/linkerd',
  ha: false,
};
const ctx = { namespace: 'test', releaseService: 'CLI' as const };
type Named = { kind: string; metadata: { name: string } };
const names = (objects: object[]) => (objects as Named[]).map((o) => `${o.kind}/${o.metadata.name}`);
const deploymentOf = (objects: object[]) => objects.find((o) => (o as Named).kind === 'Deployment') as Deployment;

describe('multicluster link (deprecated): the linkerd-multicluster-link chart', () => {
  it('renders the 7 objects of upstream service_mirror_default in order (golden)', () => {
    const objects = renderLinkChart(composeLinkChartValues(VERSION, FLAGS), ctx);
    expect(names(objects)).toEqual([
      'ClusterRole/linkerd-service-mirror-access-local-resources-test-cluster',
      'ClusterRoleBinding/linkerd-service-mirror-access-local-resources-test-cluster',
      'Role/linkerd-service-mirror-read-remote-creds-test-cluster',
      'RoleBinding/linkerd-service-mirror-read-remote-creds-test-cluster',
      'ServiceAccount/linkerd-service-mirror-test-cluster',
      'Deployment/linkerd-service-mirror-test-cluster',
      'Service/probe-gateway-test-cluster',
    ]);
    const d = deploymentOf(objects);
    expect(d.metadata?.labels?.component).toBe('service-mirror');
    expect(d.spec?.selector.matchLabels).toEqual({ component: 'linkerd-service-mirror', 'mirror.linkerd.io/cluster-name': 'test-cluster' });
    expect(d.spec?.template.spec?.containers[0]?.image).toBe(`cr.l5d.io/linkerd/controller:${VERSION}`);
    expect(kubernetesModelFailures(objects as never)).toEqual([]);
    expectGoldenFile(path.join(here, 'golden/link_chart_default.yaml'), renderManifest(objects, 'yaml'));
  });

  it('enablePodAntiAffinity adds strategy, anti-affinity on the cluster name and a PDB (upstream service_mirror_ha: 8 objects)', () => {
    const objects = renderLinkChart(composeLinkChartValues(VERSION, FLAGS, { set: ['enablePodAntiAffinity=true'] }), ctx);
    expect(objects).toHaveLength(8);
    expect(names(objects)[6]).toBe('PodDisruptionBudget/linkerd-service-mirror-test-cluster');
    const d = deploymentOf(objects);
    expect(d.spec?.replicas).toBe(1);
    expect(d.spec?.strategy).toEqual({ rollingUpdate: { maxUnavailable: 1 } });
    expect(
      d.spec?.template.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector?.matchExpressions?.[0]?.key,
    ).toBe('mirror.linkerd.io/cluster-name');
    expect(deploymentOf(renderLinkChart(composeLinkChartValues(VERSION, { ...FLAGS, ha: true }), ctx)).spec?.replicas).toBe(3);
  });

  it('a gateway-less link has no probe Service; enablePSP binds the mirror to the psp Role', () => {
    expect(names(renderLinkChart(composeLinkChartValues(VERSION, { ...FLAGS, gateway: false }), ctx))).not.toContain('Service/probe-gateway-test-cluster');
    expect(names(renderLinkChart(composeLinkChartValues(VERSION, FLAGS, { set: ['enablePSP=true'] }), ctx))).toContain(
      'RoleBinding/linkerd-multicluster-link-psp-test-cluster',
    );
  });

  it('--registry and --control-plane-version choose the image; the log flags reach the args', () => {
    const d = deploymentOf(
      renderLinkChart(
        composeLinkChartValues(VERSION, {
          ...FLAGS,
          registry: 'registry.example/l5d/',
          controlPlaneVersion: 'stable-2.14.0',
          logLevel: 'debug',
          logFormat: 'json',
        }),
        ctx,
      ),
    );
    const c = d.spec?.template.spec?.containers[0];
    expect(c?.image).toBe('registry.example/l5d/controller:stable-2.14.0');
    expect(c?.args?.slice(1, 3)).toEqual(['-log-level=debug', '-log-format=json']);
  });

  it('link prints link-gen’s three objects, then the chart, in --namespace; its own flags are checked', () => {
    const reads = {
      linkerdConfigValues: { identityTrustDomain: 'cluster.local', clusterDomain: 'cluster.local' },
      serviceAccount: {},
      tokenSecrets: [
        {
          metadata: { name: 't', annotations: { 'kubernetes.io/service-account.name': 'linkerd-service-mirror-remote-access-default' } },
          data: { token: 'dG9r' },
        },
      ],
      kubeconfig: { currentContext: 'c', context: { cluster: 'c' }, cluster: { server: 'https://127.0.0.1:6443' } },
    };
    const own: DeprecatedLinkOptions = {
      controlPlaneVersion: VERSION,
      serviceMirrorRetryLimit: 3,
      logLevel: 'info',
      logFormat: 'plain',
      registry: 'cr.l5d.io/linkerd',
      ha: false,
    };
    const options = linkGenOptions({ clusterName: 'east', cliVersion: VERSION, gateway: false, namespace: 'mc' });
    const out = deprecatedLinkOutput(reads, options, own);
    expect(names(out).slice(0, 3)).toEqual(['Secret/cluster-credentials-east', 'Secret/cluster-credentials-east', 'Link/east']);
    expect(out).toHaveLength(9);
    expect((out as { metadata: { namespace?: string } }[]).slice(3).every((o) => o.metadata.namespace === undefined || o.metadata.namespace === 'mc')).toBe(
      true,
    );
    expect(() => deprecatedLinkOutput(reads, { ...options, selector: 'app=x' }, own)).toThrow('--selector and --gateway=false are mutually exclusive');
  });
});
