import protobuf from 'protobufjs';
import { UserError } from '../errors.js';
import { type ProfileTarget, type RouteSpec, type ServiceProfile, quoteMeta, serviceProfile } from './serviceProfile.js';

/*
 * A ServiceProfile from a .proto file, as linkerd's profiles.RenderProto makes it: each rpc of each
 * service is a route named after the rpc, matching `POST /<package>.<Service>/<Rpc>` (no package,
 * no prefix); an rpc whose `idempotency_level` option is IDEMPOTENT or NO_SIDE_EFFECTS is
 * retryable. protobufjs parses the file (imports are not followed: only the file's own services count).
 */

const RETRYABLE = new Set(['IDEMPOTENT', 'NO_SIDE_EFFECTS']);

function retryable(method: protobuf.Method): boolean {
  const options: Record<string, unknown> = method.options ?? {};
  const level = options.idempotency_level ?? options['(idempotency_level)'];
  return typeof level === 'string' && RETRYABLE.has(level);
}

/** Services in declaration order, each with the package that encloses it. */
function services(ns: protobuf.NamespaceBase, pkg: string[] = []): { pkg: string; service: protobuf.Service }[] {
  const out: { pkg: string; service: protobuf.Service }[] = [];
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Service) out.push({ pkg: pkg.join('.'), service: nested });
    else if (nested instanceof protobuf.Namespace && !(nested instanceof protobuf.Type) && !(nested instanceof protobuf.Enum)) {
      out.push(...services(nested, [...pkg, nested.name]));
    }
  }
  return out;
}

/** The profile of the protobuf definitions `text`, read from `source` (a path or `<stdin>`). */
export function protoProfile(text: string, source: string, target: ProfileTarget): ServiceProfile {
  let parsed: protobuf.IParserResult;
  try {
    parsed = protobuf.parse(text, { keepCase: true, alternateCommentMode: true });
  } catch (e) {
    // protobufjs says `illegal token 'x' (line 3)`: one line naming the file and the line instead.
    const m = /^(.*) \(line (\d+)\)$/.exec((e as Error).message);
    throw new UserError(m ? `${source}:${m[2]}: ${m[1]}` : `${source}: ${(e as Error).message}`);
  }
  const routes: RouteSpec[] = [];
  for (const { pkg, service } of services(parsed.root)) {
    for (const method of service.methodsArray) {
      const path = pkg === '' ? `/${service.name}/${method.name}` : `/${pkg}.${service.name}/${method.name}`;
      const r: RouteSpec = { name: method.name, condition: { pathRegex: quoteMeta(path), method: 'POST' } };
      if (retryable(method)) r.isRetryable = true;
      routes.push(r);
    }
  }
  return serviceProfile(target, routes);
}
