import type { JSONSchemaProps, ValidationRule } from 'kubernetes-types/apiextensions/v1.js';

/**
 * One node of a CRD's `openAPIV3Schema`. kubernetes-types omits the `x-kubernetes-*`
 * extensions (they are not Go struct fields upstream), so they are added here; a Schema
 * is still assignable to JSONSchemaProps wherever the CRD type asks for one.
 */
export interface Schema extends Omit<JSONSchemaProps, 'properties' | 'items' | 'allOf' | 'anyOf' | 'oneOf' | 'not' | 'additionalProperties'> {
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
}

/** Everything a leaf may add to its type: format, bounds, pattern, enum, default, description. */
export type Constraints = Omit<Schema, 'type' | 'properties' | 'items'>;

export const str = (c: Constraints = {}): Schema => ({ type: 'string', ...c });
export const bool = (c: Constraints = {}): Schema => ({ type: 'boolean', ...c });
export const int = (c: Constraints = {}): Schema => ({ type: 'integer', ...c });
export const int32 = (c: Constraints = {}): Schema => int({ format: 'int32', ...c });
export const int64 = (c: Constraints = {}): Schema => int({ format: 'int64', ...c });
export const num = (c: Constraints = {}): Schema => ({ type: 'number', ...c });

/** A string restricted to a fixed set of values. */
export const oneOfStrings = (values: readonly string[], c: Constraints = {}): Schema => str({ enum: [...values], ...c });

/** An RFC 3339 timestamp, as metav1.Time serializes. */
export const timestamp = (c: Constraints = {}): Schema => str({ format: 'date-time', ...c });

/** An object with known fields; `required` is left out when empty so the output stays minimal. */
export function obj(properties: Record<string, Schema>, required: readonly string[] = [], c: Constraints = {}): Schema {
  return {
    type: 'object',
    ...(required.length > 0 ? { required: [...required] } : {}),
    properties,
    ...c,
  };
}

export const arr = (items: Schema, c: Constraints = {}): Schema => ({ type: 'array', items, ...c });

/**
 * A list whose entries are identified by `keys`, so server-side apply merges entries by key
 * instead of replacing the whole list.
 */
export const listMap = (items: Schema, keys: readonly string[], c: Constraints = {}): Schema =>
  arr(items, { ...c, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [...keys] });

/**
 * A value that is either an integer or a string (a port number or name). The API server
 * requires such nodes to carry no `type`.
 */
export const intOrString = (c: Constraints = {}): Schema => ({
  'x-kubernetes-int-or-string': true,
  ...c,
});

/** A free-form object whose contents are kept as written (label maps, opaque matchers). */
export const freeformObject = (c: Constraints = {}): Schema => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  ...c,
});

/**
 * Describes a node (what `kubectl explain` prints). The description goes in front, so it reads
 * first in the rendered YAML, and replaces one the node already had: the use describes best.
 */
export const described = (description: string, node: Schema): Schema => Object.assign({ description }, node, { description });

/** A TCP/UDP port number. */
export const portNumber = (c: Constraints = {}): Schema => int32({ minimum: 1, maximum: 65535, ...c });

/** The root of a custom resource: a required `spec` and, where the kind reports one, `status`. */
export function resource(spec: Schema, status?: Schema): Schema {
  return obj(status ? { spec, status } : { spec }, ['spec']);
}
