import { UserError } from '../../../core/errors.js';
import { parseResourceArg } from '../../../core/kube/friendlyNames.js';
import { invalidArgument } from '../../../core/parse/invalidArgument.js';
import { strconvQuote } from '../../../core/parse/strconv.js';
import type { HttpMatch, Resource, TapByResourceRequest, TapMatch } from './proto.js';

/*
 * linkerd's BuildTapByResourceRequest (viz/tap/pkg): the target and `--to` resources from their
 * `TYPE[/NAME]` words, the HTTP filters, `--max-rps`, and the API path the request is POSTed to
 * through the API server's aggregation layer (APIService v1alpha1.tap.linkerd.io).
 */

/** The resource types tap can target, and those `--to` accepts (services too). */
export const TAP_TARGETS = ['cronjob', 'daemonset', 'deployment', 'job', 'namespace', 'pod', 'replicaset', 'replicationcontroller', 'statefulset'] as const;
export const TAP_DESTINATIONS = [...TAP_TARGETS, 'service'] as const;

/** `--max-rps`'s default (viz/cmd/root.go maxRps). */
export const DEFAULT_MAX_RPS = 100;

export const TAP_API_GROUP_VERSION = 'tap.linkerd.io/v1alpha1';

export interface TapRequestParams {
  /** The operands joined by `/` (`deploy/web`, `deploy`). */
  resource: string;
  namespace: string;
  toResource?: string;
  toNamespace?: string;
  maxRps: number;
  scheme?: string;
  method?: string;
  authority?: string;
  path?: string;
  /** Ask for headers (`-o json`). */
  extract?: boolean;
  labelSelector?: string;
}

/** linkerd's util.BuildResource: a `TYPE[/NAME]` word in a namespace (none for namespaces). */
function buildResource(namespace: string, word: string): Resource {
  const { type, name } = parseResourceArg([word], (arg) => `Invalid resource string: ${arg}`);
  return { namespace: type === 'namespace' ? '' : namespace, type, name };
}

function wrapped<T>(prefix: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${prefix}: ${e.message}`);
    throw e;
  }
}

export function buildTapByResourceRequest(p: TapRequestParams): TapByResourceRequest {
  const target = wrapped('target resource invalid', () => buildResource(p.namespace, p.resource));
  if (!(TAP_TARGETS as readonly string[]).includes(target.type)) throw new UserError(`unsupported resource type [${target.type}]`);
  const matches: TapMatch[] = [];
  if (p.toResource) {
    const destination = wrapped('destination resource invalid', () => buildResource(p.toNamespace ?? '', p.toResource ?? ''));
    if (!(TAP_DESTINATIONS as readonly string[]).includes(destination.type)) throw new UserError(`unsupported resource type [${destination.type}]`);
    matches.push({ destinations: { resource: destination, labelSelector: '' } });
  }
  const http: HttpMatch[] = [];
  if (p.scheme) http.push({ scheme: p.scheme });
  if (p.method) http.push({ method: p.method });
  if (p.authority) http.push({ authority: p.authority });
  if (p.path) http.push({ path: p.path });
  matches.push(...http.map((h) => ({ http: h })));
  return { target: { resource: target, labelSelector: p.labelSelector ?? '' }, matches, maxRps: p.maxRps, extractHeaders: p.extract === true };
}

/** linkerd's TapReqToURL: `/apis/tap.linkerd.io/v1alpha1/watch/namespaces/<ns>/<type>s/<name>/tap`. */
export function tapPath(req: TapByResourceRequest): string {
  const r = req.target.resource;
  const seg = encodeURIComponent;
  if (r.type === 'namespace') return `/apis/${TAP_API_GROUP_VERSION}/watch/namespaces/${seg(r.name)}/tap`;
  return `/apis/${TAP_API_GROUP_VERSION}/watch/namespaces/${seg(r.namespace)}/${seg(r.type)}s/${seg(r.name)}/tap`;
}

/** pflag's float32 parsing of `--max-rps`, with its error words. */
export function parseMaxRps(value: string): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n)) throw invalidArgument(value, 'max-rps', `strconv.ParseFloat: parsing ${strconvQuote(value)}: invalid syntax`);
  return Math.fround(n);
}
