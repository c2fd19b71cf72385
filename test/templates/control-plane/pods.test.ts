import { createHash } from 'node:crypto';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Container, Namespace, PodSpec } from 'kubernetes-types/core/v1.js';
import type { ClusterRoleBinding } from 'kubernetes-types/rbac/v1.js';
import { describe, expect, it } from 'vitest';
import { find, fixtureText, pinnedWebhookCredentials, render, valuesWith } from '../../core/install/support.js';

const podOf = (d: Deployment): PodSpec => d.spec!.template.spec!;
const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
const deployment = async (name: string, values = valuesWith()) => find<Deployment>(await render(values), 'Deployment', name);

describe('control-plane pods carry the proxy that injection would give them', () => {
  it('linkerd-identity: the proxy is a regular container after the controller, without await or native sidecar', async () => {
    const pod = podOf(await deployment('linkerd-identity'));
    expect(pod.containers.map((c) => c.name)).toEqual(['identity', 'linkerd-proxy']);
    expect(pod.initContainers!.map((c) => c.name)).toEqual(['linkerd-init']);
    const proxy = pod.containers[1];
    expect(proxy.restartPolicy).toBeUndefined();
    expect(proxy.startupProbe).toBeUndefined();
    expect(proxy.lifecycle).toBeUndefined();
    expect(env(proxy, 'LINKERD2_PROXY_INBOUND_PORTS_REQUIRE_TLS')?.value).toBe('8080');
    expect(env(proxy, 'LINKERD2_PROXY_INBOUND_PORTS')?.value).toBe('8080,9990');
    expect(env(proxy, 'LINKERD2_PROXY_IDENTITY_SVC_ADDR')?.value).toBe('localhost.:8080');
  });

  for (const [name, containers, ports] of [
    ['linkerd-destination', ['destination', 'sp-validator', 'policy'], '8086,8090,8443,9443,9990,9996,9997'],
    ['linkerd-proxy-injector', ['proxy-injector'], '8443,9995'],
  ] as const) {
    it(`${name}: the proxy is a native sidecar after linkerd-init, with a startup probe`, async () => {
      const pod = podOf(await deployment(name));
      expect(pod.initContainers!.map((c) => c.name)).toEqual(['linkerd-init', 'linkerd-proxy']);
      expect(pod.containers.map((c) => c.name)).toEqual(containers);
      const proxy = pod.initContainers![1];
      expect(proxy.restartPolicy).toBe('Always');
      expect(proxy.startupProbe?.httpGet?.path).toBe('/ready');
      expect(env(proxy, 'LINKERD2_PROXY_INBOUND_PORTS')?.value).toBe(ports);
      expect(env(proxy, 'LINKERD2_PROXY_INBOUND_DEFAULT_POLICY')?.value).toBe('all-unauthenticated');
    });
  }

  it('the destination proxy dials its own controllers on localhost', async () => {
    const proxy = podOf(await deployment('linkerd-destination')).initContainers![1];
    expect(env(proxy, 'LINKERD2_PROXY_DESTINATION_SVC_ADDR')?.value).toBe('localhost.:8086');
    expect(env(proxy, 'LINKERD2_PROXY_POLICY_SVC_ADDR')?.value).toBe('localhost.:8090');
  });

  it('every control-plane proxy reads the trust bundle from the linkerd-identity-trust-roots ConfigMap', async () => {
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const pod = podOf(await deployment(name));
      const proxy = [...pod.initContainers!, ...pod.containers].find((c) => c.name === 'linkerd-proxy')!;
      expect(env(proxy, 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS')).toEqual({
        name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS',
        valueFrom: { configMapKeyRef: { name: 'linkerd-identity-trust-roots', key: 'ca-bundle.crt' } },
      });
      expect(proxy.volumeMounts!.map((m) => m.name)).not.toContain('kube-api-access');
    }
  });

  it('proxy-init lets the controllers reach the API server: outbound ports to ignore = proxyInit.kubeAPIServerPorts', async () => {
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const init = podOf(await deployment(name, valuesWith(['proxyInit.kubeAPIServerPorts=443\\,16443']))).initContainers![0];
      const args = init.args!;
      expect(args[args.indexOf('--outbound-ports-to-ignore') + 1]).toBe('443,16443');
      expect(args[args.indexOf('--inbound-ports-to-ignore') + 1]).toBe('4190,4191,4567,4568');
    }
  });

  it('turns off token automount and mounts a projected kube-api-access volume into each controller', async () => {
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const pod = podOf(await deployment(name));
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.volumes!.find((v) => v.name === 'kube-api-access')?.projected?.sources).toHaveLength(3);
      for (const c of pod.containers.filter((x) => x.name !== 'linkerd-proxy')) {
        expect(c.volumeMounts).toContainEqual({ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true });
        expect(c.securityContext).toMatchObject({ runAsUser: 2103, runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      }
      expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    }
  });

  it('annotates the pods like injection does, and checksum/config only destination and proxy-injector', async () => {
    const objects = await render();
    const anchorsSha = createHash('sha256').update(fixtureText('valid-trust-anchors.pem')).digest('hex');
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const meta = find<Deployment>(objects, 'Deployment', name).spec!.template.metadata!;
      expect(meta.annotations).toMatchObject({
        'linkerd.io/created-by': 'linkerd/cli edge-26.9.1',
        'linkerd.io/proxy-version': 'edge-26.9.1',
        'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
        'linkerd.io/trust-root-sha256': anchorsSha,
        'config.linkerd.io/default-inbound-policy': 'all-unauthenticated',
      });
      expect(meta.labels).toMatchObject({ 'linkerd.io/workload-ns': 'linkerd', 'linkerd.io/proxy-deployment': name });
      expect('checksum/config' in meta.annotations!).toBe(name !== 'linkerd-identity');
    }
    const injector = find<Deployment>(objects, 'Deployment', 'linkerd-proxy-injector').spec!.template.metadata!;
    expect(injector.annotations!['config.linkerd.io/opaque-ports']).toBe('8443');
  });

  it('derives checksum/config deterministically from the webhook objects, so new serving certificates roll the pods', async () => {
    const checksum = async (creds?: object) =>
      find<Deployment>(await render(undefined, creds ? { webhookCredentials: creds } : {}), 'Deployment', 'linkerd-destination').spec!.template.metadata!
        .annotations!['checksum/config'];
    const first = await checksum();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await checksum()).toBe(first);
    const creds = await pinnedWebhookCredentials();
    expect(await checksum({ ...creds, profileValidator: creds.policyValidator })).not.toBe(first);
  });

  it('uses the network validator instead of proxy-init, and PodSecurity restricted, with --linkerd-cni-enabled', async () => {
    const objects = await render(valuesWith(['cniEnabled=true']));
    expect(find<Namespace>(objects, 'Namespace', 'linkerd').metadata!.labels!['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const pod = podOf(find<Deployment>(objects, 'Deployment', name));
      expect(pod.initContainers![0].name).toBe('linkerd-network-validator');
      expect(pod.initContainers!.map((c) => c.name)).not.toContain('linkerd-init');
      expect(pod.volumes!.map((v) => v.name)).not.toContain('linkerd-proxy-init-xtables-lock');
    }
    expect(find<Namespace>(await render(), 'Namespace', 'linkerd').metadata!.labels!['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  it("gives linkerd-init only NET_ADMIN and NET_RAW: the controllers' own `drop: ALL` is not carried over as injection would", async () => {
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const init = podOf(await deployment(name)).initContainers!.find((c) => c.name === 'linkerd-init')!;
      expect(init.securityContext!.capabilities).toEqual({ add: ['NET_ADMIN', 'NET_RAW'] });
    }
  });

  it('lists the proxy volumes like the chart: xtables lock, identity token, then end-entity', async () => {
    for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
      const names = podOf(await deployment(name)).volumes!.map((v) => v.name);
      expect(names.slice(-3), name).toEqual(['linkerd-proxy-init-xtables-lock', 'linkerd-identity-token', 'linkerd-identity-end-entity']);
    }
    // Without token projection the end-entity volume simply ends the list.
    const names = podOf(await deployment('linkerd-identity', valuesWith(['identity.serviceAccountTokenProjection=false']))).volumes!.map((v) => v.name);
    expect(names.slice(-2)).toEqual(['linkerd-proxy-init-xtables-lock', 'linkerd-identity-end-entity']);
  });

  it('runs linkerd-init privileged when it must tune close-wait timeouts (runAsRoot + closeWaitTimeoutSecs)', async () => {
    const init = (values = valuesWith()) => deployment('linkerd-destination', values).then((d) => podOf(d).initContainers![0]);
    expect((await init()).securityContext).toMatchObject({ privileged: false, allowPrivilegeEscalation: false });
    const tuned = await init(valuesWith(['proxyInit.runAsRoot=true', 'proxyInit.closeWaitTimeoutSecs=30']));
    expect(tuned.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true, runAsUser: 0 });
    expect(tuned.args).toContain('--timeout-close-wait-secs');
  });

  it("has the network validator listen on 4140, where the CNI plugin redirects, whatever the proxy's outbound port", async () => {
    const validator = async (set: string[]) => podOf(await deployment('linkerd-destination', valuesWith(['cniEnabled=true', ...set]))).initContainers![0];
    const listen = (c: Container) => c.args![c.args!.indexOf('--listen-addr') + 1];
    expect(listen(await validator([]))).toBe('0.0.0.0:4140');
    expect(listen(await validator(['proxy.ports.outbound=4999']))).toBe('0.0.0.0:4140');
    expect(listen(await validator(['disableIPv6=false']))).toBe('[::]:4140');
    expect(listen(await validator(['networkValidator.listenAddr=0.0.0.0:5000']))).toBe('0.0.0.0:5000');
  });

  it('runs the policy controller from the controller image (/linkerd-policy-controller), or from an image named in policyController.image', async () => {
    const policy = async (values = valuesWith()) => podOf(await deployment('linkerd-destination', values)).containers.find((c) => c.name === 'policy')!;
    const builtIn = await policy();
    expect([builtIn.image, builtIn.command]).toEqual(['cr.l5d.io/linkerd/controller:edge-26.9.1', ['/linkerd-policy-controller']]);
    const registry = await policy(valuesWith(['controllerImage=my.reg/l5d/controller', 'controllerImageVersion=v1']));
    expect([registry.image, registry.command]).toEqual(['my.reg/l5d/controller:v1', ['/linkerd-policy-controller']]);
    const own = await policy(valuesWith(['policyController.image.name=my.reg/l5d/policy', 'policyController.image.pullPolicy=Always']));
    expect([own.image, own.command, own.imagePullPolicy]).toEqual(['my.reg/l5d/policy:edge-26.9.1', undefined, 'Always']);
  });

  it('tags every image with linkerdVersion and honours --registry style image names', async () => {
    const values = valuesWith([
      'controllerImage=my.reg/l5d/controller',
      'proxy.image.name=my.reg/l5d/proxy',
      'policyController.image.name=my.reg/l5d/policy-controller',
    ]);
    const pod = podOf(find<Deployment>(await render(values), 'Deployment', 'linkerd-destination'));
    const images = [...pod.initContainers!, ...pod.containers].map((c) => c.image);
    expect(new Set(images)).toEqual(new Set(['my.reg/l5d/proxy:edge-26.9.1', 'my.reg/l5d/controller:edge-26.9.1', 'my.reg/l5d/policy-controller:edge-26.9.1']));
    expect(pod.containers.find((c) => c.name === 'policy')!.image).toBe('my.reg/l5d/policy-controller:edge-26.9.1');
  });
});

describe('RBAC subjects', () => {
  it("spells out the core API group on the proxy injector's subject, as the chart does, and nowhere else", async () => {
    const bindings = (await render()).filter((o) => o.kind === 'ClusterRoleBinding') as unknown as ClusterRoleBinding[];
    const withGroup = bindings.filter((b) => b.subjects!.some((s) => 'apiGroup' in s)).map((b) => b.metadata!.name);
    expect(withGroup).toEqual(['linkerd-linkerd-proxy-injector']);
    expect(find<ClusterRoleBinding>(await render(), 'ClusterRoleBinding', 'linkerd-linkerd-proxy-injector').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'linkerd-proxy-injector', namespace: 'linkerd', apiGroup: '' },
    ]);
  });
});

describe('heartbeat CronJob', () => {
  it('runs on the context schedule by default, on heartbeatSchedule when set, and concurrencyPolicy Replace', async () => {
    const byDefault = find<CronJob>(await render(), 'CronJob', 'linkerd-heartbeat');
    expect(byDefault.spec!.schedule).toBe('1 2 3 4 5');
    expect(byDefault.spec!.concurrencyPolicy).toBe('Replace');
    const pinned = find<CronJob>(await render(valuesWith(['heartbeatSchedule=30 4 * * *'])), 'CronJob', 'linkerd-heartbeat');
    expect(pinned.spec!.schedule).toBe('30 4 * * *');
  });

  it('is not meshed and reads the API through its own token volume', async () => {
    const pod = find<CronJob>(await render(), 'CronJob', 'linkerd-heartbeat').spec!.jobTemplate.spec!.template.spec!;
    expect(pod.containers.map((c) => c.name)).toEqual(['heartbeat']);
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers[0].args).toContain('-prometheus-url=http://prometheus.linkerd-viz.svc.cluster.local:9090');
    expect(pod.containers[0].env).toEqual([{ name: 'LINKERD_DISABLED', value: 'the heartbeat controller does not use the proxy' }]);
  });
});

describe('labels and annotations (as in install_default.golden)', () => {
  it('annotates linkerd.io/created-by on ConfigMaps, Secrets, Services, workloads and PDBs, not on RBAC or webhook configurations', async () => {
    const objects = await render(valuesWith(['enablePodDisruptionBudget=true']));
    const annotated = new Set(['ConfigMap', 'Secret', 'Service', 'Deployment', 'CronJob', 'PodDisruptionBudget']);
    for (const o of objects) {
      const has = o.metadata.annotations?.['linkerd.io/created-by'] === 'linkerd/cli edge-26.9.1';
      // linkerd-config-overrides is rendered by the CLI, not the chart, and carries no annotation;
      // the chart's config Role for extensions does carry one.
      const expected =
        o.metadata.name === 'linkerd-config-overrides' ? false : o.metadata.name === 'ext-namespace-metadata-linkerd-config' || annotated.has(o.kind);
      expect([`${o.kind}/${o.metadata.name}`, has]).toEqual([`${o.kind}/${o.metadata.name}`, expected]);
    }
  });

  it('labels every object with linkerd.io/control-plane-ns, and adds commonLabels', async () => {
    const objects = await render(valuesWith(['commonLabels.team=mesh']));
    for (const o of objects) {
      expect(o.metadata.labels?.['linkerd.io/control-plane-ns']).toBe('linkerd');
      if (o.metadata.name !== 'linkerd-config-overrides') expect(o.metadata.labels?.team).toBe('mesh');
    }
  });
});
