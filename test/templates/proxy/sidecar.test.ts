import { describe, expect, it } from 'vitest';
import { Pod } from 'kubernetes-models/v1';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { ANCHORS, values } from './support.js';
import {
  sidecarParts,
  withSidecar,
  podInboundPorts,
  proxyContainer,
  proxyInitContainer,
  TRUST_ANCHORS_REQUIRED,
  injectedPodMetadata,
} from '../../../templates/proxy/index.js';
import { sha256Hex } from '../../../src/core/pki/index.js';

const app: PodSpec = {
  containers: [
    {
      name: 'web',
      image: 'nginx',
      ports: [{ containerPort: 8080 }, { containerPort: 9090 }],
      readinessProbe: { httpGet: { path: '/', port: 10254 } },
      securityContext: { capabilities: { drop: ['ALL'] } },
    },
  ],
};
const ctx = { controlPlaneNamespace: 'linkerd', podSpec: app };
const envOf = (c: { env?: { name: string; value?: string }[] }, name: string) => c.env?.find((e) => e.name === name);

describe('proxy spec: native sidecar (default)', () => {
  const parts = sidecarParts(values(), ctx);

  it('puts linkerd-init then linkerd-proxy at the head of initContainers', () => {
    expect(parts.initContainersPrepend.map((c) => c.name)).toEqual(['linkerd-init', 'linkerd-proxy']);
    expect(parts.containersPrepend).toEqual([]);
    expect(parts.initContainersAppend).toEqual([]);
  });

  it('gives the proxy restartPolicy Always, a startup probe and no lifecycle hooks', () => {
    const proxy = parts.initContainersPrepend[1];
    expect(proxy.restartPolicy).toBe('Always');
    expect(proxy.startupProbe).toEqual({ httpGet: { path: '/ready', port: 4191 }, initialDelaySeconds: 0, periodSeconds: 1, failureThreshold: 120 });
    expect(proxy.lifecycle).toBeUndefined();
  });

  it('runs proxy-init from the proxy image with iptables-nft and the default ignore lists', () => {
    const init = parts.initContainersPrepend[0];
    expect(init.image).toBe('cr.l5d.io/linkerd/proxy:edge-26.9.1');
    expect(init.command).toEqual(['/usr/lib/linkerd/linkerd2-proxy-init']);
    expect(init.args).toEqual([
      '--firewall-bin-path',
      'iptables-nft',
      '--firewall-save-bin-path',
      'iptables-nft-save',
      '--ipv6=false',
      '--incoming-proxy-port',
      '4143',
      '--outgoing-proxy-port',
      '4140',
      '--proxy-uid',
      '2102',
      '--inbound-ports-to-ignore',
      '4190,4191,4567,4568',
      '--outbound-ports-to-ignore',
      '4567,4568',
    ]);
    expect(init.securityContext?.capabilities).toEqual({ add: ['NET_ADMIN', 'NET_RAW'], drop: ['ALL'] });
    expect(init.securityContext?.runAsUser).toBe(65534);
  });

  it('adds the xtables lock, end-entity and projected token volumes in that order', () => {
    expect(parts.volumes.map((v) => v.name)).toEqual(['linkerd-proxy-init-xtables-lock', 'linkerd-identity-end-entity', 'linkerd-identity-token']);
    expect(parts.volumes[2].projected?.sources?.[0].serviceAccountToken).toEqual({
      audience: 'identity.l5d.io',
      expirationSeconds: 86400,
      path: 'linkerd-identity-token',
    });
  });

  it('writes the environment in the injector order with the pod ports sorted as strings', () => {
    const proxy = parts.initContainersPrepend[1];
    const names = proxy.env!.map((e) => e.name);
    expect(names.slice(0, 8)).toEqual([
      '_pod_name',
      '_pod_ns',
      '_pod_uid',
      '_pod_ip',
      '_pod_nodeName',
      '_pod_containerName',
      'LINKERD2_PROXY_CORES',
      'LINKERD2_PROXY_CORES_MIN',
    ]);
    expect(names.indexOf('LINKERD2_PROXY_DESTINATION_CONTEXT')).toBeLessThan(names.indexOf('_pod_sa'));
    expect(names.at(-1)).toBe('LINKERD2_PROXY_POLICY_SVC_NAME');
    expect(envOf(proxy, 'LINKERD2_PROXY_INBOUND_PORTS')?.value).toBe('10254,8080,9090');
    expect(envOf(proxy, 'LINKERD2_PROXY_LOG')?.value).toBe('warn,linkerd=info,hickory=error,[{headers}]=off,[{request}]=off');
    expect(envOf(proxy, 'LINKERD2_PROXY_DESTINATION_SVC_ADDR')?.value).toBe('linkerd-dst-headless.linkerd.svc.cluster.local.:8086');
    expect(envOf(proxy, 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS')?.value).toBe(ANCHORS.trim());
    expect(envOf(proxy, 'LINKERD2_PROXY_IDENTITY_LOCAL_NAME')?.value).toBe('$(_pod_sa).$(_pod_ns).serviceaccount.identity.linkerd.cluster.local');
    expect(envOf(proxy, 'LINKERD2_PROXY_INBOUND_SERVER_HTTP2_KEEP_ALIVE_INTERVAL')?.value).toBe('10s');
    expect(envOf(proxy, 'LINKERD2_PROXY_OUTBOUND_SERVER_HTTP2_KEEP_ALIVE_TIMEOUT')?.value).toBe('3s');
    expect(envOf(proxy, 'LINKERD2_PROXY_INBOUND_PORTS_DISABLE_PROTOCOL_DETECTION')?.value).toBe('25,587,3306,4444,5432,6379,9300,11211');
  });

  it('copies the app container capabilities into the proxy security context', () => {
    expect(parts.initContainersPrepend[1].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 2102,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  it('produces a pod that validates against the Kubernetes Pod schema', () => {
    const spec = withSidecar(app, parts);
    // kubernetes-models types enum fields more narrowly than kubernetes-types; validate() checks them at run time.
    expect(() => new Pod({ metadata: { name: 'x' }, spec: spec as never }).validate()).not.toThrow();
    expect(spec.initContainers!.map((c) => c.name)).toEqual(['linkerd-init', 'linkerd-proxy']);
    expect(spec.containers.map((c) => c.name)).toEqual(['web']);
  });
});

describe('proxy spec: classic layout (--native-sidecar=false)', () => {
  it('appends proxy-init and puts the awaiting proxy first among containers with a postStart hook', () => {
    const parts = sidecarParts(
      values((v) => {
        v.proxy.nativeSidecar = false;
      }),
      ctx,
    );
    expect(parts.initContainersAppend.map((c) => c.name)).toEqual(['linkerd-init']);
    const proxy = parts.containersPrepend[0];
    expect(proxy.name).toBe('linkerd-proxy');
    expect(proxy.restartPolicy).toBeUndefined();
    expect(proxy.startupProbe).toBeUndefined();
    expect(proxy.lifecycle?.postStart?.exec?.command).toEqual(['/usr/lib/linkerd/linkerd-await', '--timeout=2m', '--port=4191']);
  });

  it('appends the proxy when await is off and adds a preStop sleep for waitBeforeExitSeconds', () => {
    const parts = sidecarParts(
      values((v) => {
        v.proxy.nativeSidecar = false;
        v.proxy.await = false;
        v.proxy.waitBeforeExitSeconds = 7;
      }),
      ctx,
    );
    expect(parts.containersAppend[0].name).toBe('linkerd-proxy');
    expect(parts.containersAppend[0].lifecycle).toEqual({ preStop: { exec: { command: ['/bin/sleep', '7'] } } });
  });

  it('refuses waitBeforeExitSeconds with a native sidecar', () => {
    expect(() =>
      sidecarParts(
        values((v) => {
          v.proxy.waitBeforeExitSeconds = 7;
        }),
        ctx,
      ),
    ).toThrow('cannot be used simultaneously');
  });
});

describe('proxy spec: variants', () => {
  it('uses the network validator and no xtables volume with CNI', () => {
    const parts = sidecarParts(
      values((v) => {
        v.cniEnabled = true;
      }),
      ctx,
    );
    expect(parts.initContainersPrepend[0].name).toBe('linkerd-network-validator');
    expect(parts.initContainersPrepend[0].args).toContain('1.1.1.1:20001');
    expect(parts.volumes.map((v) => v.name)).not.toContain('linkerd-proxy-init-xtables-lock');
  });

  it('gives the network validator networkValidator.securityContext verbatim, and none with enableSecurityContext=false', () => {
    const validator = (edit: (v: ReturnType<typeof values>) => void) =>
      sidecarParts(
        values((v) => {
          v.cniEnabled = true;
          edit(v);
        }),
        ctx,
      ).initContainersPrepend[0];
    expect(validator(() => {}).securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsGroup: 65534,
      runAsNonRoot: true,
      runAsUser: 65534,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(validator((v) => (v.networkValidator.securityContext = { runAsUser: 1000680000 })).securityContext).toEqual({ runAsUser: 1000680000 });
    expect(validator((v) => (v.networkValidator.enableSecurityContext = false)).securityContext).toBeUndefined();
  });

  it('sets runAsGroup and --proxy-gid only for a non-negative gid', () => {
    const v = values((x) => {
      x.proxy.gid = 3000;
    });
    expect(proxyContainer(v, ctx).securityContext?.runAsGroup).toBe(3000);
    expect(proxyInitContainer(v, ctx).args).toContain('--proxy-gid');
    expect(proxyContainer(values(), ctx).securityContext?.runAsGroup).toBeUndefined();
  });

  it('renders only the resources that are set', () => {
    const v = values((x) => {
      x.proxy.resources.cpu.request = '100m';
      x.proxy.resources.memory.limit = '250Mi';
    });
    expect(proxyContainer(v, ctx).resources).toEqual({ limits: { memory: '250Mi' }, requests: { cpu: '100m' } });
    expect(proxyContainer(values(), ctx).resources).toBeUndefined();
  });

  it('reads the trust bundle from the ConfigMap and dials localhost in control-plane pods', () => {
    const proxy = proxyContainer(
      values((v) => {
        v.identityTrustAnchorsPEM = '';
      }),
      { ...ctx, component: 'linkerd-destination' },
    );
    expect(envOf(proxy, 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS')).toEqual({
      name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS',
      valueFrom: { configMapKeyRef: { name: 'linkerd-identity-trust-roots', key: 'ca-bundle.crt' } },
    });
    expect(envOf(proxy, 'LINKERD2_PROXY_POLICY_SVC_ADDR')?.value).toBe('localhost.:8090');
    expect(proxyInitContainer(values(), { ...ctx, component: 'linkerd-destination' }).args).toEqual(
      expect.arrayContaining(['--outbound-ports-to-ignore', '443,6443']),
    );
  });

  it('refuses to render an empty trust-anchor variable', () => {
    expect(() =>
      proxyContainer(
        values((v) => {
          v.identityTrustAnchorsPEM = '';
        }),
        ctx,
      ),
    ).toThrow(TRUST_ANCHORS_REQUIRED);
  });

  it('appends the debug container on request', () => {
    const parts = sidecarParts(values(), ctx, { debugSidecar: true });
    expect(parts.containersAppend.map((c) => c.name)).toEqual(['linkerd-debug']);
    expect(parts.containersAppend[0].image).toBe('cr.l5d.io/linkerd/debug:edge-26.9.1');
  });
});

describe('pod helpers', () => {
  it('collects container ports and integer HTTP probe ports, ignoring named probe ports', () => {
    expect(podInboundPorts({ containers: [{ name: 'a', ports: [{ containerPort: 80 }], livenessProbe: { httpGet: { port: 'http' } } }] })).toBe('80');
  });

  it('labels and annotates the injected pod template', () => {
    const v = values();
    const md = injectedPodMetadata(v, {
      controlPlaneNamespace: 'linkerd',
      ownerKind: 'deployment',
      ownerName: 'web',
      workloadNamespace: 'shop',
      createdBy: 'linkerd/cli edge-26.9.1',
    });
    expect(md.annotations).toEqual({
      'linkerd.io/created-by': 'linkerd/cli edge-26.9.1',
      'linkerd.io/proxy-version': 'edge-26.9.1',
      'linkerd.io/trust-root-sha256': sha256Hex(ANCHORS),
    });
    expect(md.labels).toEqual({ 'linkerd.io/control-plane-ns': 'linkerd', 'linkerd.io/proxy-deployment': 'web', 'linkerd.io/workload-ns': 'shop' });
  });
});
