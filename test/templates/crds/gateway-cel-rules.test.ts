import fs from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import { celViolations, compileRule, nodeAt, schemaRules, undeclaredSelfFields, type SchemaRule } from '../../support/cel-validation.js';
import { valueProblems } from '../../support/structural-schema.js';
import { CTX } from './crd-table.js';

// Schemas and fixtures are walked as plain JSON, the way the API server sees them.
type Json = Record<string, any>;

const REJECTED_WITH = 'fixtures.linkerd-ts/rejected-with';
const SCHEMA_REJECTS = 'fixtures.linkerd-ts/schema-rejects';

const gatewayCrds = renderCrds({ ...CTX, installGatewayAPI: true }).filter((crd) => crd.spec.group === 'gateway.networking.k8s.io');

interface Served {
  label: string;
  kind: string;
  schema: Json;
  rules: SchemaRule[];
}

const served: Served[] = gatewayCrds.flatMap((crd) =>
  crd.spec.versions.map((v) => {
    const schema = v.schema?.openAPIV3Schema as Json;
    return { label: `${crd.spec.names.kind} ${v.name}`, kind: crd.spec.names.kind, schema, rules: schemaRules(schema) };
  }),
);

interface Fixture {
  file: string;
  name: string;
  kind: string;
  object: Json;
  expected: string[];
  schemaRejects: boolean;
}

const FIXTURE_FILES = ['httproutes', 'grpcroutes', 'tlsroutes', 'tcproutes'].map((f) => `fixtures/gateway-routes/${f}.yaml`);

const fixtures: Fixture[] = FIXTURE_FILES.flatMap((file) =>
  yaml.loadAll(fs.readFileSync(file, 'utf8')).map((doc) => {
    const object = doc as Json;
    const annotations: Record<string, string> = object.metadata.annotations ?? {};
    const expected = (annotations[REJECTED_WITH] ?? '').split('\n').filter((l) => l !== '');
    return { file, name: object.metadata.name, kind: object.kind, object, expected, schemaRejects: SCHEMA_REJECTS in annotations };
  }),
);
const valid = fixtures.filter((f) => f.expected.length === 0);
const invalid = fixtures.filter((f) => f.expected.length > 0);

/** Each fixture against each served version of its kind. */
const cases = fixtures.flatMap((fixture) =>
  served.filter((s) => s.kind === fixture.kind).map((s) => ({ ...fixture, version: s, label: `${s.label}: ${fixture.name}` })),
);

const ruleId = (s: Served, r: SchemaRule) => `${s.label} ${r.schemaPath || '<root>'} #${r.index}`;

describe('Gateway API CEL rules (x-kubernetes-validations)', () => {
  it('carries the 56 rule blocks and 212 rules of the linkerd-crds chart (v1.1.1 bundle)', () => {
    const blocks = new Set(served.flatMap((s) => s.rules.map((r) => `${s.label} ${r.schemaPath}`)));
    expect(blocks.size).toBe(56);
    expect(served.reduce((n, s) => n + s.rules.length, 0)).toBe(212);
    expect(Object.fromEntries(served.map((s) => [s.label, s.rules.length]))).toEqual({
      'HTTPRoute v1': 74,
      'HTTPRoute v1beta1': 74,
      'GRPCRoute v1': 29,
      'GRPCRoute v1alpha2': 29,
      'TLSRoute v1alpha2': 3,
      'TCPRoute v1alpha2': 3,
    });
  });

  it('gives every rule a message, none is a transition rule, and every rule compiles', () => {
    for (const s of served) {
      for (const r of s.rules) {
        expect(r.message, ruleId(s, r)).not.toMatch(/^failed rule/);
        expect(r.transition, ruleId(s, r)).toBe(false);
        expect(() => compileRule(r.rule)).not.toThrow();
      }
    }
  });

  it('reads only fields the rule’s own node declares', () => {
    const unknown = served.flatMap((s) =>
      s.rules.flatMap((r) => undeclaredSelfFields(nodeAt(s.schema, r.schemaPath), r.rule).map((f) => `${ruleId(s, r)}: self.${f}`)),
    );
    expect(unknown).toEqual([]);
  });

  it('has no rules on Linkerd’s own CRDs', () => {
    const own = renderCrds({ ...CTX, installGatewayAPI: false });
    const rules = own.flatMap((crd) => crd.spec.versions.flatMap((v) => schemaRules(v.schema?.openAPIV3Schema)));
    expect(rules).toEqual([]);
  });

  it('has valid and invalid fixtures for every route kind Linkerd ships', () => {
    const kinds = (list: Fixture[]) => [...new Set(list.map((f) => f.kind))].sort();
    expect(kinds(valid)).toEqual(['GRPCRoute', 'HTTPRoute', 'TCPRoute', 'TLSRoute']);
    expect(kinds(invalid)).toEqual(['GRPCRoute', 'HTTPRoute', 'TCPRoute', 'TLSRoute']);
  });

  describe.each(cases)('$label', ({ object, expected, schemaRejects, version }) => {
    it(schemaRejects ? 'is rejected by the OpenAPI schema too' : 'is valid against the OpenAPI schema', () => {
      const problems = valueProblems(object.spec, version.schema.properties.spec, 'spec');
      if (schemaRejects) expect(problems).not.toEqual([]);
      else expect(problems).toEqual([]);
    });

    it(expected.length === 0 ? 'passes every rule' : 'is rejected with exactly the expected messages', () => {
      const violations = celViolations(version.schema, { spec: object.spec });
      expect(violations.filter((v) => v.error !== undefined)).toEqual([]);
      expect(violations.map((v) => v.message).sort()).toEqual([...expected].sort());
    });
  });

  it('exercises every rule: each rejects at least one fixture, by returning false', () => {
    const fired = new Set<string>();
    for (const c of cases) {
      for (const v of celViolations(c.version.schema, { spec: c.object.spec })) {
        if (v.error === undefined) fired.add(ruleId(c.version, v.rule));
      }
    }
    const never = served.flatMap((s) => s.rules.map((r) => ruleId(s, r))).filter((id) => !fired.has(id));
    expect(never).toEqual([]);
  });
});
