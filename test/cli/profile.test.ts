import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { pathToRegex, quoteMeta } from '../../src/core/profile/serviceProfile.js';
import { goPathJoin } from '../../src/core/profile/openApi.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../../src/core/version.js';
import { renderCrds } from '../../templates/crds/index.js';
import { startApiServer } from '../support/apiserver.js';
import { valueProblems } from '../support/structural-schema.js';
import { runCli } from '../support/cli.js';
import { expectGoldenFile } from '../support/golden.js';

const here = (name: string) => fileURLToPath(new URL(`profile/${name}`, import.meta.url));

async function profile(...args: string[]): Promise<string> {
  const r = await runCli(['profile', '--ignore-cluster', ...args]);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return r.stdout;
}

describe('linkerd profile --open-api', () => {
  it('makes a route per operation of a Swagger 2 document, as reviewed', async () => {
    expectGoldenFile(here('books.swagger.golden.yaml'), await profile('-n', 'shelf', '--open-api', here('books.swagger.yaml'), 'books'));
  });

  it('reads an OpenAPI 3 JSON document the same way (numeric status codes only, no servers prefix)', async () => {
    expectGoldenFile(here('books.openapi3.golden.yaml'), await profile('-n', 'shelf', '--open-api', here('books.openapi3.json'), 'books'));
  });

  it('prints -o json compact, in the Go struct order, with no newline at the end', async () => {
    const out = await profile('-n', 'shelf', '--open-api', here('books.swagger.yaml'), '-o', 'json', 'books');
    expect(out.endsWith('}')).toBe(true);
    expect(
      out.startsWith(
        '{"kind":"ServiceProfile","apiVersion":"linkerd.io/v1alpha2","metadata":{"name":"books.shelf.svc.cluster.local","namespace":"shelf"},"spec":{"routes":[{"name":"GET /api/v1/books","condition":{"pathRegex":"/api/v1/books","method":"GET"},"responseClasses":[',
      ),
    ).toBe(true);
    const yamlOut = await profile('-n', 'shelf', '--open-api', here('books.swagger.yaml'), 'books');
    expect(JSON.parse(out)).toEqual(yaml.load(yamlOut));
  });

  it('reads the document from standard input with -', async () => {
    const r = await runCli(['profile', '--ignore-cluster', '-n', 'shelf', '--open-api', '-', 'books'], { input: 'paths:\n  /x/{id}:\n    get: {}\n' });
    expect(r.stdout).toContain('pathRegex: /x/[^/]*\n');
  });
});

describe('linkerd profile --proto', () => {
  it('makes a POST route per rpc of each service, retryable when idempotent, as reviewed', async () => {
    expectGoldenFile(here('bookstore.golden.yaml'), await profile('-n', 'shelf', '--proto', here('bookstore.proto'), 'books'));
  });

  it('names the path without a package when the file has none', async () => {
    const r = await runCli(['profile', '--ignore-cluster', '-n', 'a', '--proto', '-', 'svc'], {
      input: 'syntax = "proto3";\nservice S { rpc M (R) returns (R); }\nmessage R {}\n',
    });
    expect((yaml.load(r.stdout) as { spec: { routes: unknown[] } }).spec.routes).toEqual([{ name: 'M', condition: { method: 'POST', pathRegex: '/S/M' } }]);
  });
});

describe('linkerd profile --template', () => {
  it('prints the commented template whose data is the documented example route', async () => {
    const text = await profile('-n', 'shelf', '--template', 'books');
    expect(text.split('\n')[0]).toBe('### ServiceProfile for books.shelf ###');
    expect(yaml.load(text)).toEqual({
      apiVersion: 'linkerd.io/v1alpha2',
      kind: 'ServiceProfile',
      metadata: { name: 'books.shelf.svc.cluster.local', namespace: 'shelf' },
      spec: {
        routes: [
          {
            name: '/authors/{id}',
            condition: { pathRegex: '/authors/\\d+', method: 'POST' },
            responseClasses: [{ condition: { status: { min: 500, max: 599 } }, isFailure: true }],
          },
        ],
      },
    });
  });

  it('prints -o json as the data with sorted keys and a newline', async () => {
    const out = await profile('-n', 'shelf', '--template', '-o', 'json', 'books');
    expect(out).toBe(
      '{"apiVersion":"linkerd.io/v1alpha2","kind":"ServiceProfile","metadata":{"name":"books.shelf.svc.cluster.local","namespace":"shelf"},"spec":{"routes":[{"condition":{"method":"POST","pathRegex":"/authors/\\\\d+"},"name":"/authors/{id}","responseClasses":[{"condition":{"status":{"max":599,"min":500}},"isFailure":true}]}]}}\n',
    );
  });

  it('takes the cluster domain from linkerd-config without --ignore-cluster', async () => {
    const server = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: 'clusterDomain: corp.example\n' } },
      ],
    });
    try {
      const r = await runCli(['profile', '--template', '-n', 'shelf', 'books', '--kubeconfig', server.kubeconfigPath]);
      expect(r.stdout).toContain('  name: books.shelf.svc.corp.example\n');
      // Without -n: the kubeconfig context's namespace.
      const noNs = await runCli(['profile', '--template', 'books', '--kubeconfig', server.kubeconfigPath]);
      expect(noNs.stdout).toContain('  namespace: default\n');
      // No control plane: the cluster domain is unknown, and that is an error, not a guess.
      const other = await runCli(['profile', '--template', '-n', 'shelf', '-L', 'elsewhere', 'books', '--kubeconfig', server.kubeconfigPath]);
      expect([other.code, other.stdout, other.stderr]).toEqual([1, '', 'Error: configmaps "linkerd-config" not found\n']);
    } finally {
      await server.stop();
    }
  });
});

describe('linkerd profile refusals', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'profile-'));
  const CASES: [string, string[], string, string?][] = [
    ['no source', ['-n', 'a', 'svc'], 'You must specify exactly one of --template or --open-api or --proto'],
    ['two sources', ['-n', 'a', '--template', '--proto', 'x.proto', 'svc'], 'You must specify exactly one of --template or --open-api or --proto'],
    [
      'a service that is not a DNS-1035 label',
      ['-n', 'a', '--template', '7eet-svc'],
      `invalid service "7eet-svc": [a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')]`,
    ],
    [
      'a namespace that is not a DNS-1123 label',
      ['-n', 'invalid/namespace', '--template', 'svc'],
      `invalid namespace "invalid/namespace": [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]`,
    ],
    ['an unknown output format', ['-n', 'a', '--template', '-o', 'table', 'svc'], 'unknown output format: table'],
    [
      'a proto file that does not parse, naming its line',
      ['-n', 'a', '--proto', '-', 'svc'],
      "<stdin>:3: illegal token 'returnz', 'returns' expected",
      'syntax = "proto3";\nservice S {\n  rpc M (R) returnz (R);\n}\n',
    ],
    [
      'OpenAPI YAML that does not parse, naming its line',
      ['-n', 'a', '--open-api', '-', 'svc'],
      'Error parsing yaml: <stdin>:3:1: unexpected end of the stream within a flow collection',
      'paths:\n  /a: [\n',
    ],
    [
      'an OpenAPI document of the wrong shape',
      ['-n', 'a', '--open-api', '-', 'svc'],
      'Error parsing OpenAPI spec: <stdin>: paths must be an object',
      'paths: [1, 2]\n',
    ],
  ];
  for (const [what, args, message, input] of CASES) {
    it(`refuses ${what} in one line, printing nothing`, async () => {
      const r = await runCli(['profile', '--ignore-cluster', ...args], { input });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`Error: ${message}`);
    });
  }

  it('refuses a missing file, naming it', async () => {
    const d = dir();
    try {
      const r = await runCli(['profile', '--ignore-cluster', '-n', 'a', '--open-api', path.join(d, 'none.yaml'), 'svc']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('none.yaml');
      writeFileSync(path.join(d, 'big.proto'), Buffer.alloc(17 * 1024 * 1024, 0x20));
      const big = await runCli(['profile', '--ignore-cluster', '-n', 'a', '--proto', path.join(d, 'big.proto'), 'svc']);
      expect([big.code, big.stdout]).toEqual([1, '']);
      expect(big.stderr).toContain('limit for OpenAPI and protobuf files');
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('generated profiles against the ServiceProfile CRD', () => {
  it('fit the v1alpha2 schema linkerd install --crds renders, for every source', async () => {
    const crd = renderCrds({ namespace: 'linkerd', cliVersion: LINKERD_VERSION, chartVersion: CRDS_CHART_VERSION }).find(
      (c) => c.spec.names.kind === 'ServiceProfile',
    );
    const schema = crd?.spec.versions.find((v) => v.name === 'v1alpha2')?.schema?.openAPIV3Schema;
    expect(schema).toBeDefined();
    const outputs = [
      await profile('-n', 'shelf', '--open-api', here('books.swagger.yaml'), 'books'),
      await profile('-n', 'shelf', '--open-api', here('books.openapi3.json'), 'books'),
      await profile('-n', 'shelf', '--proto', here('bookstore.proto'), 'books'),
      await profile('-n', 'shelf', '--template', 'books'),
    ];
    // apiVersion, kind and metadata are the API server's, not in the CRD's schema: spec is what it checks.
    for (const out of outputs) expect(valueProblems({ spec: (yaml.load(out) as { spec: unknown }).spec }, schema as never, '')).toEqual([]);
    // The validator is not blind: a route without its condition is refused.
    expect(valueProblems({ spec: { routes: [{ name: 'x' }] } }, schema as never, '')).not.toEqual([]);
  });
});

describe('route regexes', () => {
  it("quotes what Go's regexp.QuoteMeta quotes, and turns {params} into [^/]*", () => {
    expect(quoteMeta('/a.b+c*d?e(f)g|h[i]j{k}l^m$n\\o-p/')).toBe('/a\\.b\\+c\\*d\\?e\\(f\\)g\\|h\\[i\\]j\\{k\\}l\\^m\\$n\\\\o-p/');
    expect(pathToRegex('/books/{isbn}/reviews/{id}.json')).toBe('/books/[^/]*/reviews/[^/]*\\.json');
  });
  it("joins basePath and path as Go's path.Join does", () => {
    expect(goPathJoin('/api/v1/', '/books/')).toBe('/api/v1/books');
    expect(goPathJoin('', '/books')).toBe('/books');
    expect(goPathJoin('/api', '../x/./y//z')).toBe('/x/y/z');
    expect(goPathJoin('', '')).toBe('');
  });
});
