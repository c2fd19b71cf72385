import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, described, int64, obj, resource, type Schema } from './schema.js';
import { linkerdConditions, localTargetRef, namespacedRef, refGroup, refKind, refName, refNamespace } from './shared-schemas.js';

const rps = (): Schema => described('Requests per second allowed.', int64());
const requestsPerSecond = (): Schema => obj({ requestsPerSecond: rps() }, ['requestsPerSecond']);

/** HTTPLocalRateLimitPolicy: per-proxy request-rate limits on a Server, overall, per identity and per client. */
export function httpLocalRateLimitPoliciesCrd(ctx: CrdContext): CustomResourceDefinition {
  const spec = described(
    'The target and its request-rate limits.',
    obj(
      {
        targetRef: described('The Server to limit (the only supported target).', localTargetRef()),
        total: described('A limit shared by all traffic to the target; none if unset.', requestsPerSecond()),
        identity: described('A limit applied to each client identity separately.', requestsPerSecond()),
        overrides: described(
          'Limits for specific clients, replacing the per-identity limit for them.',
          arr(
            obj(
              {
                requestsPerSecond: rps(),
                clientRefs: described('The clients (e.g. ServiceAccounts) this override applies to.', arr(namespacedRef({ namespace: refNamespace() }))),
              },
              ['requestsPerSecond', 'clientRefs'],
            ),
          ),
        ),
      },
      ['targetRef'],
    ),
  );

  // The controller echoes the resolved target into status, defaulting it to a Server.
  const status = described(
    'What the policy controller reports about the policy.',
    obj(
      {
        conditions: linkerdConditions(),
        targetRef: described(
          'The target the controller resolved.',
          obj(
            {
              group: described('API group of the target.', refGroup({ default: 'policy.linkerd.io' })),
              kind: described('Kind of the target.', refKind({ default: 'Server' })),
              name: described('Name of the target.', refName()),
            },
            ['name'],
          ),
        ),
      },
      ['targetRef'],
    ),
  );

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      kind: 'HTTPLocalRateLimitPolicy',
      listKind: 'HTTPLocalRateLimitPolicyList',
      plural: 'httplocalratelimitpolicies',
      singular: 'httplocalratelimitpolicy',
    },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: resource(spec, status) },
        additionalPrinterColumns: [
          {
            name: 'Target_kind',
            type: 'string',
            description: 'Kind of the limited resource',
            jsonPath: '.spec.targetRef.kind',
          },
          {
            name: 'Target_name',
            type: 'string',
            description: 'Name of the limited resource',
            jsonPath: '.spec.targetRef.name',
          },
          {
            name: 'Total_RPS',
            type: 'integer',
            format: 'int32',
            description: 'Overall limit',
            jsonPath: '.spec.total.requestsPerSecond',
          },
          {
            name: 'Identity_RPS',
            type: 'integer',
            format: 'int32',
            description: 'Limit per client identity',
            jsonPath: '.spec.identity.requestsPerSecond',
          },
        ],
      },
    ],
  });
}
