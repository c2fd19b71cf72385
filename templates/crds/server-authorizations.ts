import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, bool, described, obj, resource, str, type Schema } from './schema.js';
import { DNS_LABEL_PATTERN, labelSelector, networks } from './shared-schemas.js';

/** A proxy identity, or a `*`-prefixed domain of them. */
const IDENTITY_PATTERN = '^(\\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** Both versions share one schema; v1alpha1 is only kept for objects written long ago. */
function serverAuthorizationSchema(): Schema {
  const server = {
    ...described(
      'The Servers this authorization grants access to: one by name, or by label selector.',
      obj({
        name: described('A Server in this namespace.', str({ pattern: DNS_LABEL_PATTERN })),
        selector: labelSelector('Selects Servers in this namespace by label.'),
      }),
    ),
    oneOf: [{ required: ['name'] }, { required: ['selector'] }],
  };
  const meshTLS = described(
    'Meshed clients allowed, by identity or ServiceAccount.',
    obj({
      unauthenticatedTLS: described('Accept TLS clients without an identity (the identity controller needs this).', bool()),
      identities: described('Proxy identities allowed; `*` allows any, a `*.` prefix a whole domain.', arr(str({ pattern: IDENTITY_PATTERN }))),
      serviceAccounts: described(
        'ServiceAccounts whose workloads are allowed.',
        arr(
          obj(
            {
              name: described('Name of the ServiceAccount.', str({ pattern: DNS_LABEL_PATTERN })),
              namespace: described("Defaults to the authorization's namespace.", str({ pattern: DNS_LABEL_PATTERN })),
            },
            ['name'],
          ),
        ),
      ),
    }),
  );
  const client = described(
    'The clients allowed.',
    obj({
      networks: described('Client networks; the server picks a default when unset.', networks()),
      unauthenticated: described('Allow clients without any authentication.', bool()),
      meshTLS,
    }),
  );
  return resource(described('Which Servers are opened to which clients.', obj({ server, client }, ['server', 'client'])));
}

/** ServerAuthorization: the pre-AuthorizationPolicy way of granting clients access to Servers. */
export function serverAuthorizationsCrd(ctx: CrdContext): CustomResourceDefinition {
  const versions: CustomResourceDefinitionVersion[] = [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'policy.linkerd.io/v1alpha1 ServerAuthorization is deprecated; use policy.linkerd.io/v1beta1 ServerAuthorization',
      schema: { openAPIV3Schema: serverAuthorizationSchema() },
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: serverAuthorizationSchema() },
      additionalPrinterColumns: [
        {
          name: 'Server',
          type: 'string',
          description: 'The Server this authorization grants access to',
          jsonPath: '.spec.server.name',
        },
      ],
    },
  ];

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      kind: 'ServerAuthorization',
      plural: 'serverauthorizations',
      singular: 'serverauthorization',
      shortNames: ['saz', 'serverauthz', 'srvauthz'],
    },
    versions,
  });
}
