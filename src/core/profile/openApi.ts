import { posix } from 'node:path';
import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import { loadYaml } from '../input/loadYaml.js';
import { type ProfileTarget, type ResponseClass, type RouteSpec, type ServiceProfile, pathToRegex, serviceProfile } from './serviceProfile.js';

/*
 * A ServiceProfile from an OpenAPI document, as linkerd's profiles.RenderOpenAPI makes it: the
 * paths sorted, one route per operation (DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT), named
 * `<METHOD> <path>`, matching the path with each `{param}` as `[^/]*`; one response class per
 * numeric status code (failure from 500 up); `x-linkerd-retryable` (a boolean) and
 * `x-linkerd-timeout` (a string) from the operation. Swagger 2's `basePath` prefixes the paths;
 * OpenAPI 3 documents are read the same way (linkerd reads both with its Swagger 2 model), so
 * their `servers` are not part of the paths.
 */

const METHODS = ['delete', 'get', 'head', 'options', 'patch', 'post', 'put'] as const;

type Json = Record<string, unknown>;

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's path.Join: the parts joined with `/` and cleaned (no trailing slash, no `.`/`..`), "" when all are empty. */
export function goPathJoin(...parts: string[]): string {
  const nonEmpty = parts.filter((p) => p !== '');
  if (nonEmpty.length === 0) return '';
  const joined = posix.normalize(nonEmpty.join('/'));
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

function shapeError(what: string): UserError {
  return new UserError(`Error parsing OpenAPI spec: ${what}`);
}

function responseClasses(responses: unknown): ResponseClass[] | undefined {
  if (responses === undefined || responses === null) return undefined;
  if (!isMap(responses)) throw shapeError('responses must be an object');
  // Keys that are not status codes (`default`, `2XX`, extensions) make no class, as in linkerd.
  const codes = Object.keys(responses)
    .filter((k) => /^[+-]?[0-9]+$/.test(k))
    .map(Number)
    .sort((a, b) => a - b);
  return codes.map((code) => ({ condition: { status: { min: code, max: code } }, ...(code >= 500 ? { isFailure: true } : {}) }));
}

function route(path: string, method: string, operation: Json): RouteSpec {
  const r: RouteSpec = { name: `${method} ${path}`, condition: { pathRegex: pathToRegex(path), method } };
  const classes = responseClasses(operation.responses);
  if (classes && classes.length > 0) r.responseClasses = classes;
  if (operation['x-linkerd-retryable'] === true) r.isRetryable = true;
  const timeout = operation['x-linkerd-timeout'];
  if (typeof timeout === 'string' && timeout !== '') r.timeout = timeout;
  return r;
}

/** The profile of the OpenAPI (or Swagger) document `text`, read from `source` (a path or `<stdin>`). */
export function openApiProfile(text: string, source: string, target: ProfileTarget): ServiceProfile {
  let doc: unknown;
  try {
    doc = loadYaml(text, source);
  } catch (e) {
    if (!(e instanceof yaml.YAMLException)) throw e;
    // js-yaml leaves `mark` out for errors without a position, whatever its types say.
    const mark = e.mark as yaml.YAMLException['mark'] | undefined;
    const where = mark ? `:${mark.line + 1}:${mark.column + 1}` : '';
    throw new UserError(`Error parsing yaml: ${source}${where}: ${e.reason}`);
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isMap(doc)) throw shapeError(`${source}: the document must be an object`);
  const basePath = doc.basePath ?? '';
  if (typeof basePath !== 'string') throw shapeError(`${source}: basePath must be a string`);
  const paths = doc.paths ?? {};
  if (!isMap(paths)) throw shapeError(`${source}: paths must be an object`);
  const routes: RouteSpec[] = [];
  // Only keys starting with `/` are paths (others are extensions or ignored), as go-openapi reads them.
  for (const rel of Object.keys(paths)
    .filter((k) => k.startsWith('/'))
    .sort()) {
    const item = paths[rel];
    if (item === null || item === undefined) continue;
    if (!isMap(item)) throw shapeError(`${source}: paths.${rel} must be an object`);
    const path = goPathJoin(basePath, rel);
    for (const method of METHODS) {
      const op = item[method];
      if (op === null || op === undefined) continue;
      if (!isMap(op)) throw shapeError(`${source}: paths.${rel}.${method} must be an object`);
      routes.push(route(path, method.toUpperCase(), op));
    }
  }
  return serviceProfile(target, routes);
}
