import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, bool, described, freeformObject, int32, intOrString, num, obj, str, type Schema } from './schema.js';

/** A Kubernetes resource.Quantity, which is how a dstOverride's weight is written ("500m", 1). */
const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/**
 * Request and response matchers nest recursively (all/any/not of matchers), which a
 * structural schema cannot express, so the nested matchers are kept free-form.
 */
const nestedMatchers = (description: string): Schema => described(description, arr(freeformObject()));

const requestMatch = (): Schema =>
  described(
    'When a request belongs to the route.',
    obj({
      pathRegex: described('A regular expression the whole request path must match.', str()),
      method: described('The HTTP method the request must use.', str()),
      all: nestedMatchers('Request matchers that must all match.'),
      any: nestedMatchers('Request matchers of which at least one must match.'),
      not: nestedMatchers('Request matchers that must not match.'),
    }),
  );

const responseClass = (): Schema =>
  described(
    'Classifies responses, e.g. as failures.',
    obj(
      {
        condition: described(
          'Which responses belong to the class.',
          obj({
            all: nestedMatchers('Response matchers that must all match.'),
            any: nestedMatchers('Response matchers of which at least one must match.'),
            // Unlike the request matcher, a response matcher negates a single matcher.
            not: described('A response matcher that must not match.', freeformObject()),
            status: described(
              'An inclusive range of status codes.',
              obj({
                max: described('Highest status code in the range.', int32()),
                min: described('Lowest status code in the range.', int32()),
              }),
            ),
          }),
        ),
        isFailure: described('Count responses of this class as failures (for success rate and retries).', bool()),
      },
      ['condition'],
    ),
  );

const route = (): Schema =>
  obj(
    {
      condition: requestMatch(),
      isRetryable: described('Retry failed requests of this route, within the retry budget.', bool()),
      name: described('Name of the route, as metrics label it.', str()),
      timeout: described('How long a request may take before it fails, e.g. "300ms".', str()),
      responseClasses: described('Classes of responses, checked in order.', arr(responseClass())),
    },
    ['condition', 'name'],
  );

function serviceProfileSpec(routesRequired: boolean): Schema {
  return described(
    'Routes, retries and traffic splits for the service this profile is named after.',
    obj(
      {
        dstOverrides: described(
          'Weighted destinations that replace the service as the target of its traffic.',
          // Upstream lists authority and weight as required on the array itself, where
          // JSON Schema ignores them; this keeps that (lack of) effect.
          arr(
            obj({
              authority: described('The destination, as host:port.', str()),
              weight: described(
                'Share of traffic for this destination, as a quantity (e.g. 500m).',
                intOrString({ anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN }),
              ),
            }),
          ),
        ),
        opaquePorts: described('Ports whose traffic is proxied without protocol detection.', arr(str())),
        retryBudget: described(
          'How many retries the service may receive on top of its regular traffic.',
          obj(
            {
              minRetriesPerSecond: described('Retries allowed per second regardless of the ratio.', int32()),
              retryRatio: described('Retries allowed as a fraction of regular requests, e.g. 0.2.', num({ format: 'float' })),
              ttl: described('The window over which the ratio is computed, e.g. "10s".', str()),
            },
            ['minRetriesPerSecond', 'retryRatio', 'ttl'],
          ),
        ),
        routes: described('Request classes with their own metrics, retries and timeouts.', arr(route())),
      },
      routesRequired ? ['routes'] : [],
    ),
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
