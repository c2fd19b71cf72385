import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import { CTX } from './crd-table.js';

// Schemas are walked as plain JSON, the way the API server sees them.
type Json = Record<string, any>;

const crds = renderCrds({ ...CTX, installGatewayAPI: true });
const crd = (name: string) => {
  const found = crds.find((c) => c.metadata?.name === name);
  if (!found) throw new Error(`no CRD ${name}`);
  return found;
};
const version = (name: string, v: string) => {
  const found = crd(name).spec.versions.find((x) => x.name === v);
  if (!found) throw new Error(`no version ${v} of ${name}`);
  return found;
};
const rootOf = (name: string, v: string): Json => version(name, v).schema?.openAPIV3Schema as Json;
const specOf = (name: string, v: string): Json => rootOf(name, v).properties.spec;
const props = (node: Json): string[] => Object.keys(node.properties ?? {});

describe('Server (servers.policy.linkerd.io)', () => {
  const name = 'servers.policy.linkerd.io';

  it('selects pods or ExternalWorkloads (exactly one) on a required int-or-string port from v1beta2 on', () => {
    for (const v of ['v1beta2', 'v1beta3']) {
      const spec = specOf(name, v);
      expect(props(spec)).toEqual(expect.arrayContaining(['podSelector', 'externalWorkloadSelector', 'port', 'proxyProtocol']));
      expect(spec.required).toEqual(['port']);
      expect(spec.oneOf).toEqual([{ required: ['podSelector'] }, { required: ['externalWorkloadSelector'] }]);
      expect(spec.properties.port).toEqual(expect.objectContaining({ 'x-kubernetes-int-or-string': true }));
      expect(spec.properties.port).not.toHaveProperty('type');
    }
  });

  it('requires a podSelector in v1alpha1 and v1beta1', () => {
    expect(specOf(name, 'v1alpha1').required).toEqual(['podSelector', 'port']);
    expect(specOf(name, 'v1beta1').required).toEqual(['podSelector', 'port']);
    expect(props(specOf(name, 'v1beta1'))).not.toContain('externalWorkloadSelector');
  });

  it('leaves proxyProtocol an open string defaulting to unknown in every version, as the chart does (the webhook rejects the rest)', () => {
    for (const version of ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3']) {
      const protocol = specOf(name, version).properties.proxyProtocol;
      expect(protocol.type).toBe('string');
      expect(protocol.enum).toBeUndefined();
      expect(protocol.default).toBe('unknown');
    }
  });

  it('adds accessPolicy (default deny) and its printer column in v1beta3 only', () => {
    expect(specOf(name, 'v1beta3').properties.accessPolicy).toEqual(expect.objectContaining({ type: 'string', default: 'deny' }));
    expect(props(specOf(name, 'v1beta2'))).not.toContain('accessPolicy');
    expect(version(name, 'v1beta3').additionalPrinterColumns?.map((c) => c.name)).toEqual(['Port', 'Protocol', 'Access Policy']);
  });

  it('deprecates v1alpha1 and v1beta1 and is known as srv', () => {
    expect(version(name, 'v1alpha1').deprecated).toBe(true);
    expect(version(name, 'v1beta1').deprecated).toBe(true);
    expect(version(name, 'v1beta2').deprecated).toBeUndefined();
    expect(crd(name).spec.names.shortNames).toEqual(['srv']);
  });
});

describe('HTTPRoute (httproutes.policy.linkerd.io)', () => {
  const name = 'httproutes.policy.linkerd.io';
  const ruleOf = (v: string) => specOf(name, v).properties.rules.items;

  it("types the object's own apiVersion, kind and metadata in every version, as the chart's generated schema does", () => {
    for (const v of ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3']) {
      const root = rootOf(name, v);
      expect(Object.keys(root.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
      expect(root.properties.apiVersion).toMatchObject({ type: 'string' });
      expect(root.properties.kind).toMatchObject({ type: 'string' });
      expect(root.properties.metadata).toEqual({ type: 'object' });
    }
  });

  it('mirrors Gateway API: parentRefs, hostnames and rules of matches, filters and backendRefs', () => {
    for (const v of ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3']) {
      expect(props(specOf(name, v))).toEqual(['hostnames', 'parentRefs', 'rules']);
      expect(props(ruleOf(v))).toEqual(expect.arrayContaining(['matches', 'filters', 'backendRefs']));
      expect(specOf(name, v).properties.parentRefs.items.properties.group.default).toBe('policy.linkerd.io');
    }
  });

  it('defaults a rule to matching every path', () => {
    expect(specOf(name, 'v1beta3').properties.rules.default).toEqual([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]);
  });

  it('has weighted, typed backendRefs from v1beta2 and timeouts from v1beta3', () => {
    expect(props(ruleOf('v1beta1').properties.backendRefs.items)).toEqual(['name', 'port', 'namespace', 'filters']);
    expect(props(ruleOf('v1beta2').properties.backendRefs.items)).toEqual(
      expect.arrayContaining(['group', 'kind', 'name', 'namespace', 'port', 'weight', 'filters']),
    );
    expect(props(ruleOf('v1beta2'))).not.toContain('timeouts');
    expect(props(ruleOf('v1beta3').properties.timeouts)).toEqual(['backendRequest', 'request']);
  });

  it('only allows header modification and redirects as rule filters', () => {
    expect(ruleOf('v1beta3').properties.filters.items.properties.type.enum).toEqual(['RequestHeaderModifier', 'RequestRedirect']);
  });

  it('reports per-parent status through the status subresource', () => {
    for (const v of crd(name).spec.versions) {
      expect(v.subresources).toEqual({ status: {} });
      const status = (v.schema?.openAPIV3Schema as Json).properties.status;
      expect(status.required).toEqual(['parents']);
      expect(props(status.properties.parents.items)).toEqual(['conditions', 'controllerName', 'parentRef']);
    }
  });
});

describe('ServiceProfile (serviceprofiles.linkerd.io)', () => {
  const name = 'serviceprofiles.linkerd.io';

  it('has routes, retryBudget, dstOverrides and opaquePorts', () => {
    const spec = specOf(name, 'v1alpha2');
    expect(props(spec)).toEqual(['dstOverrides', 'opaquePorts', 'retryBudget', 'routes']);
    expect(spec.properties.retryBudget.required).toEqual(['minRetriesPerSecond', 'retryRatio', 'ttl']);
    expect(spec.properties.dstOverrides.items.properties.weight['x-kubernetes-int-or-string']).toBe(true);
  });

  it('describes routes by a request condition and response classes', () => {
    const route = specOf(name, 'v1alpha2').properties.routes.items;
    expect(route.required).toEqual(['condition', 'name']);
    expect(props(route.properties.condition)).toEqual(['pathRegex', 'method', 'all', 'any', 'not']);
    expect(props(route.properties.responseClasses.items.properties.condition)).toEqual(['all', 'any', 'not', 'status']);
  });

  it('requires routes in v1alpha1 only', () => {
    expect(specOf(name, 'v1alpha1').required).toEqual(['routes']);
    expect(specOf(name, 'v1alpha2').required).toBeUndefined();
  });

  it('is known as sp and disables preserveUnknownFields', () => {
    expect(crd(name).spec.names.shortNames).toEqual(['sp']);
    expect(crd(name).spec.preserveUnknownFields).toBe(false);
  });
});

describe('ExternalWorkload (externalworkloads.workload.linkerd.io)', () => {
  const name = 'externalworkloads.workload.linkerd.io';

  it('renamed meshTls to meshTLS and allows a second (dual-stack) address in v1beta1', () => {
    expect(specOf(name, 'v1alpha1').required).toEqual(['meshTls']);
    expect(specOf(name, 'v1beta1').required).toEqual(['meshTLS']);
    expect(specOf(name, 'v1alpha1').properties.workloadIPs.maxItems).toBe(1);
    expect(specOf(name, 'v1beta1').properties.workloadIPs.maxItems).toBe(2);
  });

  it('has a status subresource in v1beta1, with probe-time conditions', () => {
    expect(version(name, 'v1alpha1').subresources).toBeUndefined();
    expect(version(name, 'v1beta1').subresources).toEqual({ status: {} });
    expect(props(rootOf(name, 'v1beta1').properties.status.properties.conditions.items)).toContain('lastProbeTime');
  });
});

describe('authentication and authorization kinds', () => {
  it('AuthorizationPolicy requires a target and the authentications to satisfy', () => {
    expect(specOf('authorizationpolicies.policy.linkerd.io', 'v1alpha1').required).toEqual(['targetRef', 'requiredAuthenticationRefs']);
  });

  it('MeshTLSAuthentication takes identities or identityRefs, not both', () => {
    const spec = specOf('meshtlsauthentications.policy.linkerd.io', 'v1alpha1');
    expect(spec.oneOf).toEqual([{ required: ['identities'] }, { required: ['identityRefs'] }]);
    expect(spec.properties.identityRefs.items.required).toEqual(['kind']);
  });

  it('NetworkAuthentication requires networks of CIDRs with exceptions', () => {
    const spec = specOf('networkauthentications.policy.linkerd.io', 'v1alpha1');
    expect(spec.required).toEqual(['networks']);
    expect(props(spec.properties.networks.items)).toEqual(['cidr', 'except']);
  });

  it('ServerAuthorization names a server by name or selector and describes its clients', () => {
    const spec = specOf('serverauthorizations.policy.linkerd.io', 'v1beta1');
    expect(spec.properties.server.oneOf).toEqual([{ required: ['name'] }, { required: ['selector'] }]);
    expect(props(spec.properties.client)).toEqual(['networks', 'unauthenticated', 'meshTLS']);
  });

  it('EgressNetwork requires an Allow or Deny traffic policy and reports status', () => {
    const name = 'egressnetworks.policy.linkerd.io';
    expect(specOf(name, 'v1alpha1').properties.trafficPolicy.enum).toEqual(['Allow', 'Deny']);
    expect(specOf(name, 'v1alpha1').required).toEqual(['trafficPolicy']);
    expect(version(name, 'v1alpha1').subresources).toEqual({ status: {} });
  });

  it('HTTPLocalRateLimitPolicy limits overall, per identity and per client', () => {
    const name = 'httplocalratelimitpolicies.policy.linkerd.io';
    expect(props(specOf(name, 'v1alpha1'))).toEqual(['targetRef', 'total', 'identity', 'overrides']);
    expect(version(name, 'v1alpha1').additionalPrinterColumns?.map((c) => c.name)).toEqual(['Target_kind', 'Target_name', 'Total_RPS', 'Identity_RPS']);
  });

  it('uses the short names kubectl users know', () => {
    const shortNames = (n: string) => crd(n).spec.names.shortNames;
    expect(shortNames('authorizationpolicies.policy.linkerd.io')).toEqual(['authzpolicy']);
    expect(shortNames('meshtlsauthentications.policy.linkerd.io')).toEqual(['meshtlsauthn']);
    expect(shortNames('networkauthentications.policy.linkerd.io')).toEqual(['netauthn', 'networkauthn']);
    expect(shortNames('serverauthorizations.policy.linkerd.io')).toEqual(['saz', 'serverauthz', 'srvauthz']);
  });
});

describe('Gateway API route CRDs', () => {
  it('HTTPRoute offers every v1.1.1 filter, session persistence and timeouts', () => {
    const rule = specOf('httproutes.gateway.networking.k8s.io', 'v1').properties.rules.items;
    expect(rule.properties.filters.items.properties.type.enum).toEqual([
      'RequestHeaderModifier',
      'ResponseHeaderModifier',
      'RequestMirror',
      'RequestRedirect',
      'URLRewrite',
      'ExtensionRef',
    ]);
    expect(props(rule)).toEqual(['backendRefs', 'filters', 'matches', 'sessionPersistence', 'timeouts']);
  });

  it('makes header removal lists sets in Gateway API routes only, as the bundle does', () => {
    const modifier = (name: string, v: string) => specOf(name, v).properties.rules.items.properties.filters.items.properties.requestHeaderModifier;
    expect(modifier('httproutes.gateway.networking.k8s.io', 'v1').properties.remove['x-kubernetes-list-type']).toBe('set');
    expect(modifier('grpcroutes.gateway.networking.k8s.io', 'v1').properties.remove['x-kubernetes-list-type']).toBe('set');
    expect(modifier('httproutes.policy.linkerd.io', 'v1beta3').properties.remove).not.toHaveProperty('x-kubernetes-list-type');
  });

  it('GRPCRoute matches on service and method', () => {
    const match = specOf('grpcroutes.gateway.networking.k8s.io', 'v1').properties.rules.items.properties.matches.items;
    expect(props(match.properties.method)).toEqual(['method', 'service', 'type']);
  });

  it('TLSRoute and TCPRoute require rules with at least one backend', () => {
    for (const name of ['tlsroutes.gateway.networking.k8s.io', 'tcproutes.gateway.networking.k8s.io']) {
      const spec = specOf(name, 'v1alpha2');
      expect(spec.required).toEqual(['rules']);
      expect(spec.properties.rules.items.properties.backendRefs.minItems).toBe(1);
    }
  });

  it('defaults parentRefs to Gateways of gateway.networking.k8s.io', () => {
    const parent = specOf('tcproutes.gateway.networking.k8s.io', 'v1alpha2').properties.parentRefs.items;
    expect(parent.properties.group.default).toBe('gateway.networking.k8s.io');
    expect(parent.properties.kind.default).toBe('Gateway');
  });
});

describe('printing', () => {
  it('shares no objects between nodes, so YAML output has no anchors or aliases', () => {
    const text = crds.map((c) => yaml.dump(c)).join('---\n');
    expect(text).not.toMatch(/[&*]ref_\d+/);
  });
});
