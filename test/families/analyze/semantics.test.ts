import { describe, expect, it } from 'vitest';
import { findingsTable } from '../../../src/families/analyze/print/table.js';
import { readInputs } from '../../../src/families/analyze/read.js';
import { analyze } from '../../../src/families/analyze/rules/index.js';
import { nearestName } from '../../../src/families/analyze/nearest.js';
import { parseSelector, selects } from '../../../src/families/analyze/selector.js';

const OPTIONS = { trustDomain: 'cluster.local', controlPlaneNamespace: 'linkerd' };

async function findings(text: string) {
  const read = await readInputs(['-'], 'default', { stdin: () => Promise.resolve(Buffer.from(text)) });
  return analyze(read, OPTIONS);
}

describe('analyze reads as inject does', () => {
  it('refuses nesting past the limit in one line, naming the input', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    await expect(findings(deep)).rejects.toThrow(/^<stdin>:\d+:\d+: nested more than \d+ levels deep$/);
  });

  it('refuses an alias bomb at its position instead of expanding it', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    await expect(findings(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n${lines.map((l) => `  ${l}`).join('\n')}\n`)).rejects.toThrow(
      /^<stdin>:\d+:\d+: /,
    );
  });

  it('reports a repeated key at its line, on the object it is in (List items too)', async () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: a\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: b\n      name: c\n';
    const f = await findings(text);
    expect(f.map((x) => [x.code, x.resource.name, x.line])).toEqual([['LA1001', 'c', 12]]);
  });

  it('points JSON findings at the object', async () => {
    const server = {
      apiVersion: 'policy.linkerd.io/v1beta2',
      kind: 'ServerAuthorization',
      metadata: { name: 's', namespace: 'n' },
      spec: { server: { name: 'x' }, client: { unauthenticated: true } },
    };
    const f = await findings(`\n${JSON.stringify(server)}`);
    expect(f.map((x) => [x.code, x.line])).toEqual([
      ['LA1002', 2],
      ['LA4006', 2],
    ]);
  });
});

describe('Server ports', () => {
  const app = (initPorts: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec:
  template:
    metadata:
      labels: {app: web}
    spec:
      initContainers:
        - name: sidecar
          restartPolicy: Always
          ports: ${initPorts}
      containers:
        - name: web
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: policy.linkerd.io/v1beta3
kind: Server
metadata: {name: admin, namespace: app}
spec:
  podSelector: {matchLabels: {app: web}}
  port: admin
  accessPolicy: all-unauthenticated
`;
  it("count a native sidecar's (init container's) named ports", async () => {
    expect((await findings(app('[{name: admin, containerPort: 9990}]'))).map((f) => f.code)).toEqual([]);
    expect((await findings(app('[{name: metrics, containerPort: 9990}]'))).map((f) => f.code)).toEqual(['LA3001']);
  });
  it('do not count UDP ports', async () => {
    expect((await findings(app('[{name: admin, containerPort: 9990, protocol: UDP}]'))).map((f) => f.code)).toEqual(['LA3001']);
  });
});

describe('LA4001 messages', () => {
  const deployment = (probe: string) => `apiVersion: v1
kind: Namespace
metadata:
  name: app
  annotations: {linkerd.io/inject: enabled, config.linkerd.io/default-inbound-policy: deny}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec:
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          ports: [{name: http, containerPort: 8080}]
          ${probe}
`;
  const la4001 = async (text: string) => (await findings(text)).find((f) => f.code === 'LA4001')?.message;
  it('under default deny, say only HTTP probes reach a port, and nothing when its probe is gRPC or HTTPS', async () => {
    expect(await la4001(deployment('readinessProbe: {httpGet: {port: http}}'))).toMatch(/so only the kubelet's HTTP probes reach it;/);
    expect(await la4001(deployment('readinessProbe: {grpc: {port: 8080}}'))).toMatch(/so nothing reaches it \(gRPC and HTTPS probes get no probe route\);/);
    expect(await la4001(deployment('livenessProbe: {httpGet: {port: 8080, scheme: HTTPS}}'))).toMatch(/so nothing reaches it \(/);
    expect(await la4001(deployment('image: x'))).toMatch(/so nothing reaches it;/);
  });
  it('say nothing of a workload with no proxy (inject disabled): it has no inbound policy', async () => {
    const codes = async (text: string) => (await findings(text)).map((f) => f.code).filter((c) => c === 'LA4001' || c === 'LA4002');
    const probe = 'readinessProbe: {grpc: {port: 8080}}';
    expect(await codes(deployment(probe))).toEqual(['LA4001', 'LA4002']);
    const unmeshed = deployment(probe).replace('labels: {app: web}', 'labels: {app: web}\n      annotations: {linkerd.io/inject: disabled}');
    expect(await codes(unmeshed)).toEqual([]);
    const server = `---\napiVersion: policy.linkerd.io/v1beta3\nkind: Server\nmetadata: {name: s, namespace: app}\nspec: {podSelector: {}, port: 8080, accessPolicy: deny}\n`;
    expect(await codes(deployment(probe) + server)).toContain('LA4002');
    expect(await codes(unmeshed + server)).not.toContain('LA4002');
  });
  it('names an invalid accessPolicy instead of calling it deny', async () => {
    const server = (policy: string) =>
      `apiVersion: policy.linkerd.io/v1beta3\nkind: Server\nmetadata: {name: s, namespace: app}\nspec: {podSelector: {}, port: 8080, accessPolicy: ${policy}}\n`;
    expect(await la4001(server('allow'))).toMatch(
      /^accessPolicy "allow" is not a default policy \(the controller grants nothing for it\) and no AuthorizationPolicy/,
    );
    expect(await la4001(server('deny'))).toMatch(/^accessPolicy is deny and no AuthorizationPolicy/);
  });
});

describe('label selectors, as the policy controller evaluates them', () => {
  it('an In expression without values selects nothing; Exists with values: [] selects nothing', () => {
    expect(selects(parseSelector({ matchExpressions: [{ key: 'app', operator: 'In' }] }), { app: 'web' })).toBe(false);
    expect(selects(parseSelector({ matchExpressions: [{ key: 'app', operator: 'Exists', values: [] }] }), { app: 'web' })).toBe(false);
    expect(selects(parseSelector({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }), { app: 'web' })).toBe(true);
    expect(selects(parseSelector({}), { any: 'thing' })).toBe(true);
  });
});

describe('nearest names', () => {
  it('suggests a close name, and nothing for a distant one', () => {
    expect(nearestName('web-htp', ['web-http', 'emoji-grpc'])).toBe('web-http');
    expect(nearestName('voting', ['web-http', 'emoji-grpc'])).toBeUndefined();
  });
});

describe('-o table', () => {
  it('removes terminal escapes that names in the input carry', async () => {
    const f = await findings('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "x\\e]0;owned\\a"\n  annotations:\n    linkerd.io/inject: "yes"\n');
    const table = findingsTable(f);
    expect(table).toContain('LA2001');
    // eslint-disable-next-line no-control-regex
    expect(table).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
