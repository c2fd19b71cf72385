import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import type { RequestMatch, ResponseMatch, RouteSpec, ServiceProfile } from './serviceProfile.js';

/*
 * The two forms `linkerd profile` prints. YAML as sigs.k8s.io/yaml writes a Go struct: keys sorted,
 * lists not indented under their key. JSON as Go's json.Marshal: the struct's field order, compact,
 * and no newline at the end (the real command writes none).
 */

export type ProfileFormat = 'yaml' | 'json';

export function profileFormat(value: string): ProfileFormat {
  if (value === 'yaml' || value === 'json') return value;
  throw new UserError(`unknown output format: ${value}`);
}

export function profileYaml(p: ServiceProfile): string {
  return yaml.dump(p, { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
}

function requestMatch(m: RequestMatch): RequestMatch {
  const out: RequestMatch = {};
  if (m.all) out.all = m.all.map(requestMatch);
  if (m.not) out.not = requestMatch(m.not);
  if (m.any) out.any = m.any.map(requestMatch);
  if (m.pathRegex) out.pathRegex = m.pathRegex;
  if (m.method) out.method = m.method;
  return out;
}

function responseMatch(m: ResponseMatch): ResponseMatch {
  const out: ResponseMatch = {};
  if (m.all) out.all = m.all.map(responseMatch);
  if (m.not) out.not = responseMatch(m.not);
  if (m.any) out.any = m.any.map(responseMatch);
  if (m.status) out.status = { ...(m.status.min ? { min: m.status.min } : {}), ...(m.status.max ? { max: m.status.max } : {}) };
  return out;
}

function route(r: RouteSpec): RouteSpec {
  const out: RouteSpec = { name: r.name, condition: requestMatch(r.condition) };
  if (r.responseClasses?.length)
    out.responseClasses = r.responseClasses.map((c) => ({ condition: responseMatch(c.condition), ...(c.isFailure ? { isFailure: true } : {}) }));
  if (r.isRetryable) out.isRetryable = true;
  if (r.timeout) out.timeout = r.timeout;
  return out;
}

export function profileJson(p: ServiceProfile): string {
  const spec: ServiceProfile['spec'] = {};
  if (p.spec.routes?.length) spec.routes = p.spec.routes.map(route);
  if (p.spec.retryBudget) spec.retryBudget = p.spec.retryBudget;
  return JSON.stringify({ kind: p.kind, apiVersion: p.apiVersion, metadata: { name: p.metadata.name, namespace: p.metadata.namespace }, spec });
}

/** `--template -o json`: the template's data (comments dropped) as compact JSON, keys sorted as a Go map's are. */
export function templateJson(text: string): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(yaml.load(text)))}\n`;
}
