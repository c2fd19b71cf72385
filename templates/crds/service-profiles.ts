import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import {
  arr,
  bool,
  described,
  freeformObject,
  int32,
  intOrString,
  num,
  obj,
  str,
  type Schema,
} from './schema.js';

/** A Kubernetes resource.Quantity, which is how a dstOverride's weight is written ("500m", 1). */
const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/**
 * Request and response matchers nest recursively (all/any/not of matchers), which a
 * structural schema cannot express, so the nested matchers are kept free-form.
 */
const nestedMatchers = (): Schema => arr(freeformObject());

const requestMatch = (): Schema =>
  described(
    'When a request belongs to the route.',
    obj({
      pathRegex: str(),
      method: str(),
      all: nestedMatchers(),
      any: nestedMatchers(),
      not: nestedMatchers(),
    }),
  );

const responseClass = (): Schema =>
  described(
    'Classifies responses, e.g. as failures.',
    obj(
      {
        condition: obj({
          all: nestedMatchers(),
          any: nestedMatchers(),
          // Unlike the request matcher, a response matcher negates a single matcher.
          not: freeformObject(),
          status: described('An inclusive range of status codes.', obj({ max: int32(), min: int32() })),
        }),
        isFailure: bool(),
      },
      ['condition'],
    ),
  );

const route = (): Schema =>
  obj(
    {
      condition: requestMatch(),
      isRetryable: bool(),
      name: str(),
      timeout: str(),
      responseClasses: arr(responseClass()),
    },
    ['condition', 'name'],
  );

function serviceProfileSpec(routesRequired: boolean): Schema {
  return obj(
    {
      dstOverrides: described(
        'Weighted destinations that replace the service as the target of its traffic.',
        // Upstream lists authority and weight as required on the array itself, where
        // JSON Schema ignores them; this keeps that (lack of) effect.
        arr(
          obj({
            authority: str(),
            weight: intOrString({ anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN }),
          }),
        ),
      ),
      opaquePorts: arr(str()),
      retryBudget: described(
        'How many retries the service may receive on top of its regular traffic.',
        obj(
          { minRetriesPerSecond: int32(), retryRatio: num({ format: 'float' }), ttl: str() },
          ['minRetriesPerSecond', 'retryRatio', 'ttl'],
        ),
      ),
      routes: arr(route()),
    },
    routesRequired ? ['routes'] : [],
  );
}

/** ServiceProfile: per-route metrics, retries and timeouts for a service (the pre-HTTPRoute API). */
export function serviceProfilesCrd(ctx: CrdContext): CustomResourceDefinition {
  return namespacedCrd(ctx, {
    group: 'linkerd.io',
    names: { kind: 'ServiceProfile', plural: 'serviceprofiles', singular: 'serviceprofile', shortNames: ['sp'] },
    preserveUnknownFields: false,
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: false,
        // v1alpha1 profiles had to list routes; v1alpha2 allows profiles with only overrides.
        schema: { openAPIV3Schema: obj({ spec: serviceProfileSpec(true) }) },
      },
      {
        name: 'v1alpha2',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: obj({ spec: serviceProfileSpec(false) }) },
      },
    ],
  });
}
