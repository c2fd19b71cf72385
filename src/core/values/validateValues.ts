import type { z } from 'zod';
import { UserError } from '../errors.js';
import { type Values, ValuesSchema } from './schema.js';
import { formatPath, getPath, typeName } from './tree.js';

/*
 * Schema validation with one readable line per failure: `<source>: <dotted.path>: <reason>`
 * (`<source>:<line>:<col>: …` when the source is a file that holds the path),
 * e.g. `--set: proxy.ports.admin: expected number, got string` or `values.yaml: proxy.foo: unknown key`.
 */

type Issue = z.core.$ZodIssue;

const EXPECTED_NAMES: Readonly<Record<string, string>> = {
  int: 'integer',
  object: 'map',
  record: 'map',
};

function expectedName(expected: string): string {
  return EXPECTED_NAMES[expected] ?? expected;
}

/** Keys older charts had and this release dropped: named with what replaces them. */
const REMOVED_KEYS: Readonly<Record<string, string>> = {
  controlPlaneTracing: 'removed in this release; use controller.tracing.enabled',
  controlPlaneTracingNamespace: 'removed in this release; use controller.tracing.collector.endpoint',
};

function unknownKeyReason(path: readonly PropertyKey[], key: PropertyKey | undefined): string {
  const removed = path.length === 0 && typeof key === 'string' ? REMOVED_KEYS[key] : undefined;
  return removed ? `unknown key (${removed})` : 'unknown key';
}

function describe(issue: Issue, input: unknown): { path: PropertyKey[]; reason: string } {
  const path = [...issue.path];
  const got = getPath(input, path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return {
        path: [...path, ...issue.keys.slice(0, 1)],
        reason: issue.keys.length > 1 ? `unknown key (also: ${issue.keys.slice(1).join(', ')})` : unknownKeyReason(path, issue.keys[0]),
      };
    case 'invalid_type':
      if (issue.expected === 'int' && typeof got === 'number') return { path, reason: `expected integer, got ${got}` };
      return { path, reason: `expected ${expectedName(issue.expected)}, got ${typeName(got)}` };
    case 'invalid_value':
      return { path, reason: `expected one of: ${issue.values.map(String).join(', ')} (got ${JSON.stringify(got)})` };
    case 'too_small':
      return { path, reason: `must be ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)} (got ${JSON.stringify(got)})` };
    case 'too_big':
      return { path, reason: `must be ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)} (got ${JSON.stringify(got)})` };
    case 'invalid_union': {
      // Name the alternatives by their expected types (e.g. `expected integer or string, got map`).
      const expected = issue.errors
        .map((branch) => branch.find((i) => i.code === 'invalid_type' && i.path.length === 0))
        .filter((i): i is Extract<Issue, { code: 'invalid_type' }> => i?.code === 'invalid_type')
        .map((i) => expectedName(i.expected));
      if (expected.length === issue.errors.length) return { path, reason: `expected ${expected.join(' or ')}, got ${typeName(got)}` };
      return { path, reason: 'invalid value' };
    }
    default:
      return { path, reason: issue.message };
  }
}

function firstIssue(issues: readonly Issue[]): Issue | undefined {
  return issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
}

/** The reason of the first issue alone (`must be <= 65535 (got 70000)`), for a message that names its own source. */
export function issueReason(issues: readonly Issue[], input: unknown): string {
  const first = firstIssue(issues);
  return first === undefined ? 'invalid value' : describe(first, input).reason;
}

/** Where a key path sits in the source (`-f` files know; `--set` does not). */
export type Locate = (path: readonly PropertyKey[]) => { line: number; col: number } | undefined;

/**
 * One line for the first issue (and a count of the others). Unknown keys come first: a typo such as
 * `nam:` also makes `name` missing, and the typo is the helpful half.
 */
export function formatIssues(issues: readonly Issue[], input: unknown, source: string, locate?: Locate): string {
  const first = firstIssue(issues);
  if (first === undefined) return `${source}: invalid`;
  const { path, reason } = describe(first, input);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const at = locate?.(path);
  return `${at ? `${source}:${at.line}:${at.col}` : source}: ${formatPath(path)}: ${reason}${more}`;
}

/**
 * Parses a complete values tree with a chart's schema. `source` names where the values came from
 * (`values.yaml`, `--set`, `linkerd-config`) in the error.
 */
export function validateWithSchema<V>(schema: z.ZodType<V>, obj: unknown, source: string): V {
  const result = schema.safeParse(obj);
  if (!result.success) throw new UserError(formatIssues(result.error.issues, obj, source));
  return result.data;
}

/** validateWithSchema with the control-plane chart's schema. */
export function validateValues(obj: unknown, source: string): Values {
  return validateWithSchema(ValuesSchema, obj, source);
}
