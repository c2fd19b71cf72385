import fs from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';
import { kubectl } from '../support/kubectl.js';

// The loopback API server stores CRDs and serves their kinds, but runs neither OpenAPI nor CEL
// validation (test/templates/crds/gateway-cel-rules.test.ts does that): this shows that real
// kubectl reads the rendered CRDs, rules and all, and maps the fixture routes onto them.
describe('linkerd install --crds with Gateway API, through kubectl (loopback API server)', () => {
  let server: ApiServer;
  let manifest: string;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    const rendered = await runCli(['install', '--crds', '--ignore-cluster', '--set', 'installGatewayAPI=true']);
    expect(rendered.code).toBe(0);
    manifest = `${server.dir}/crds.yaml`;
    fs.writeFileSync(manifest, rendered.stdout);
  });
  afterAll(() => server.stop());

  it('creates the 14 CRDs with kubectl, server dry-run first', async () => {
    const dry = await kubectl(server, 'create', '--dry-run=server', '--validate=false', '-f', manifest, '-o', 'name');
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    expect(dry.stdout.trim().split('\n')).toHaveLength(14);
    const created = await kubectl(server, 'create', '--validate=false', '-f', manifest);
    expect([created.code, created.stderr]).toEqual([0, '']);
  });

  it('keeps every CEL rule and message intact through kubectl', async () => {
    const r = await kubectl(server, 'get', 'crds', '-o', 'json');
    expect(r.code).toBe(0);
    const rules: { rule: string; message: string }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'x-kubernetes-validations') rules.push(...(v as typeof rules));
          else walk(v);
        }
      }
    };
    walk(JSON.parse(r.stdout));
    expect(rules).toHaveLength(212);
    expect(rules).toContainEqual({
      rule: `(self.type in ['Exact','PathPrefix']) ? self.value.matches(r"""^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$""") : true`,
      message: `must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']`,
    });
  });

  it('maps every fixture route onto a version the CRDs serve', async () => {
    const r = await kubectl(server, 'create', '--dry-run=client', '--validate=false', '-o', 'name', '-f', 'fixtures/gateway-routes/');
    expect(r.stderr).toBe('');
    const names = r.stdout.trim().split('\n');
    expect(names).toContain('httproute.gateway.networking.k8s.io/web-to-backends');
    expect(names).toContain('grpcroute.gateway.networking.k8s.io/catch-all');
    expect(names).toContain('tlsroute.gateway.networking.k8s.io/database');
    expect(names).toContain('tcproute.gateway.networking.k8s.io/database');
    const documents = fs
      .readdirSync('fixtures/gateway-routes')
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => yaml.loadAll(fs.readFileSync(`fixtures/gateway-routes/${f}`, 'utf8')));
    expect(names).toHaveLength(documents.length);
  });
});
