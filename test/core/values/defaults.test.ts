import { describe, expect, it } from 'vitest';
import { ValuesSchema, defaultValues, haOverlay } from '../../../src/core/values/index.js';
import { LINKERD_VERSION } from '../../../src/core/version.js';

describe('defaultValues', () => {
  const d = defaultValues();

  it('is accepted by the strict schema unchanged', () => {
    const parsed = ValuesSchema.parse(d);
    expect(parsed).toEqual(d);
  });

  it('fills the version placeholders with the CLI version', () => {
    expect(d.linkerdVersion).toBe(LINKERD_VERSION);
    expect(d.debugContainer.image.version).toBe(LINKERD_VERSION);
    expect(d.cliVersion).toBe(`linkerd/cli ${LINKERD_VERSION}`);
    expect(d.proxyContainerName).toBe('linkerd-proxy');
    // Proxy and policy-controller tags stay empty: templates fall back to linkerdVersion.
    expect(d.proxy.image.version).toBe('');
    expect(d.policyController.image.version).toBe('');
  });

  it('carries the destination controller’s meshed HTTP/2 keep-alive, as the real chart writes it into linkerd-config', () => {
    expect(d.destinationController.meshedHttp2ClientProtobuf).toEqual({ keep_alive: { interval: { seconds: 10 }, timeout: { seconds: 3 }, while_idle: true } });
  });

  it('takes another version when asked', () => {
    const v = defaultValues('edge-99.1.1');
    expect(v.linkerdVersion).toBe('edge-99.1.1');
    expect(v.debugContainer.image.version).toBe('edge-99.1.1');
    expect(v.cliVersion).toBe('linkerd/cli edge-99.1.1');
  });

  it('returns an independent copy on every call', () => {
    const a = defaultValues();
    a.proxy.ports.admin = 1;
    a.podAnnotations.x = 'y';
    const b = defaultValues();
    expect(b.proxy.ports.admin).toBe(4191);
    expect(b.podAnnotations).toEqual({});
    expect(Object.isFrozen(b)).toBe(false);
  });

  it.each([
    ['clusterDomain', 'cluster.local'],
    ['identityTrustDomain', ''],
    ['clusterNetworks', '10.0.0.0/8,100.64.0.0/10,172.16.0.0/12,192.168.0.0/16,fd00::/8'],
    ['identity.issuer.scheme', 'linkerd.io/tls'],
    ['identity.issuer.issuanceLifetime', '24h0m0s'],
    ['identity.issuer.clockSkewAllowance', '20s'],
    ['identity.externalCA', false],
    ['identity.serviceAccountTokenProjection', true],
    ['identityTrustAnchorsPEM', ''],
    ['identity.issuer.tls.crtPEM', ''],
    ['identity.issuer.tls.keyPEM', ''],
    ['proxy.image.name', 'cr.l5d.io/linkerd/proxy'],
    ['proxy.image.pullPolicy', ''],
    ['imagePullPolicy', 'IfNotPresent'],
    ['proxy.ports.admin', 4191],
    ['proxy.ports.control', 4190],
    ['proxy.ports.inbound', 4143],
    ['proxy.ports.outbound', 4140],
    ['proxy.uid', 2102],
    ['proxy.gid', -1],
    ['proxy.logLevel', 'warn,linkerd=info,hickory=error'],
    ['proxy.logFormat', 'plain'],
    ['proxy.logHTTPHeaders', 'off'],
    ['proxy.opaquePorts', '25,587,3306,4444,5432,6379,9300,11211'],
    ['proxy.defaultInboundPolicy', 'all-unauthenticated'],
    ['proxy.await', true],
    ['proxy.nativeSidecar', true],
    ['proxy.outboundConnectTimeout', '1000ms'],
    ['proxy.inboundConnectTimeout', '100ms'],
    ['proxy.outboundDiscoveryCacheUnusedTimeout', '5s'],
    ['proxy.inboundDiscoveryCacheUnusedTimeout', '90s'],
    ['proxy.runtime.workers.minimum', 1],
    ['proxy.resources.cpu.request', ''],
    ['proxy.resources.memory.limit', ''],
    ['proxy.resources.ephemeral-storage.request', ''],
    ['proxy.livenessProbe.initialDelaySeconds', 10],
    ['proxy.livenessProbe.timeoutSeconds', 1],
    ['proxy.readinessProbe.initialDelaySeconds', 2],
    ['proxy.startupProbe.initialDelaySeconds', 0],
    ['proxy.startupProbe.periodSeconds', 1],
    ['proxy.startupProbe.failureThreshold', 120],
    ['proxy.control.streams.initialTimeout', '3s'],
    ['proxy.control.streams.idleTimeout', '5m'],
    ['proxy.control.streams.lifetime', '1h'],
    ['proxyInit.iptablesMode', 'nft'],
    ['proxyInit.ignoreInboundPorts', '4567,4568'],
    ['proxyInit.ignoreOutboundPorts', '4567,4568'],
    ['proxyInit.kubeAPIServerPorts', '443,6443'],
    ['proxyInit.runAsUser', 65534],
    ['proxyInit.runAsGroup', 65534],
    ['proxyInit.runAsRoot', false],
    ['proxyInit.privileged', false],
    ['disableIPv6', true],
    ['controllerImage', 'cr.l5d.io/linkerd/controller'],
    ['controllerReplicas', 1],
    ['controllerUID', 2103],
    ['controllerGID', -1],
    ['webhookFailurePolicy', 'Ignore'],
    ['enableH2Upgrade', true],
    ['enableEndpointSlices', true],
    ['debugContainer.image.name', 'cr.l5d.io/linkerd/debug'],
    ['proxyInjector.timeoutSeconds', 10],
    ['highAvailability', false],
    ['enablePodAntiAffinity', false],
    ['enablePodDisruptionBudget', false],
    ['installGatewayAPI', false],
    ['policyController.image.name', ''],
    ['networkValidator.timeout', '10s'],
    ['revisionHistoryLimit', 10],
  ])('has %s = %j (as in the chart values.yaml)', (path, expected) => {
    const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], d);
    expect(value).toEqual(expected);
  });

  it('has HTTP/2 keep-alive parameters for inbound and outbound servers', () => {
    const keepAlive = { server: { http2: { keepAliveInterval: '10s', keepAliveTimeout: '3s' } } };
    expect(d.proxy.inbound).toEqual(keepAlive);
    expect(d.proxy.outbound).toEqual(keepAlive);
  });

  it('excludes disabled namespaces, kube-system and cert-manager from the proxy injector', () => {
    expect(d.proxyInjector.namespaceSelector).toEqual({
      matchExpressions: [
        { key: 'config.linkerd.io/admission-webhooks', operator: 'NotIn', values: ['disabled'] },
        { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'cert-manager'] },
      ],
    });
    expect(d.proxyInjector.objectSelector).toEqual({
      matchExpressions: [
        { key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' },
        { key: 'linkerd.io/cni-resource', operator: 'DoesNotExist' },
      ],
    });
  });

  it('has no proxy-init image (proxy-init runs from the proxy image)', () => {
    expect('image' in d.proxyInit).toBe(false);
  });

  it('leaves the optional Gateway API route switches unset', () => {
    expect('enableHttpRoutes' in d).toBe(false);
    expect('enableTlsRoutes' in d).toBe(false);
    expect('enableTcpRoutes' in d).toBe(false);
  });
});

describe('haOverlay', () => {
  const ha = haOverlay();

  it('switches webhooks to Fail and runs 3 replicas', () => {
    expect(ha.webhookFailurePolicy).toBe('Fail');
    expect(ha.controllerReplicas).toBe(3);
  });

  it('enables anti-affinity, disruption budgets and the HA marker', () => {
    expect(ha.enablePodAntiAffinity).toBe(true);
    expect(ha.enablePodDisruptionBudget).toBe(true);
    expect(ha.highAvailability).toBe(true);
  });

  it('rolls out one pod at a time', () => {
    expect(ha.deploymentStrategy?.rollingUpdate?.maxUnavailable).toBe(1);
  });

  it('sizes the proxy at 100m CPU, 20Mi..250Mi memory', () => {
    expect(ha.proxy?.resources).toEqual({ cpu: { request: '100m' }, memory: { limit: '250Mi', request: '20Mi' } });
  });

  it('sizes controllers at 100m CPU and 50Mi..250Mi memory, identity at 10Mi', () => {
    for (const key of ['destinationResources', 'heartbeatResources', 'proxyInjectorResources'] as const) {
      expect(ha[key]?.cpu?.request).toBe('100m');
      expect(ha[key]?.memory).toEqual({ limit: '250Mi', request: '50Mi' });
    }
    expect(ha.identityResources?.memory).toEqual({ limit: '250Mi', request: '10Mi' });
  });

  it('is a fresh copy on every call', () => {
    const a = haOverlay();
    a.controllerReplicas = 7;
    expect(haOverlay().controllerReplicas).toBe(3);
  });
});
