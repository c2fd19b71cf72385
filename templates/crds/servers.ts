import type { CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { described, intOrString, obj, resource, str, type Schema } from './schema.js';
import { labelSelector } from './shared-schemas.js';

const port = (): Schema => described('A port number or name of the selected workloads.', intOrString());
const proxyProtocol = (): Schema =>
  described(
    'How inbound connections are handled; replaces the `config.linkerd.io/opaque-ports` annotation.',
    // An open string as in the chart: the policy admission webhook, not the schema, rejects an
    // unknown protocol (and `linkerd analyze` reports it before apply).
    str({ default: 'unknown' }),
  );
const podSelector = (): Schema => labelSelector('Selects pods in this namespace.');
const externalWorkloadSelector = (): Schema => labelSelector('Selects ExternalWorkloads in this namespace.');

const SPEC = 'The workloads and the port that policy attaches to.';

/** v1alpha1: pods only, and the selector must say something. */
function v1alpha1Spec(): Schema {
  const selector = {
    ...podSelector(),
    oneOf: [{ required: ['matchExpressions'] }, { required: ['matchLabels'] }],
  };
  return described(SPEC, obj({ podSelector: selector, port: port(), proxyProtocol: proxyProtocol() }, ['podSelector', 'port']));
}

/** v1beta1: pods only; an empty selector selects every pod. */
function v1beta1Spec(): Schema {
  return described(SPEC, obj({ podSelector: podSelector(), port: port(), proxyProtocol: proxyProtocol() }, ['podSelector', 'port']));
}

/** v1beta2 selects either pods or ExternalWorkloads; v1beta3 adds a default access policy. */
function selectorChoiceSpec(withAccessPolicy: boolean): Schema {
  return {
    ...described(
      SPEC,
      obj(
        {
          ...(withAccessPolicy
            ? {
                accessPolicy: described('What happens to traffic no authorization matches.', str({ default: 'deny' })),
              }
            : {}),
          podSelector: podSelector(),
          externalWorkloadSelector: externalWorkloadSelector(),
          port: port(),
          proxyProtocol: proxyProtocol(),
        },
        ['port'],
      ),
    ),
    oneOf: [{ required: ['podSelector'] }, { required: ['externalWorkloadSelector'] }],
  };
}

// A fresh array per version: shared references would turn into YAML anchors when printed.
const portAndProtocolColumns = (): CustomResourceColumnDefinition[] => [
  { name: 'Port', type: 'string', description: 'The port the server listens on', jsonPath: '.spec.port' },
  { name: 'Protocol', type: 'string', description: 'The protocol of the server', jsonPath: '.spec.proxyProtocol' },
];

/** Server: a port of a set of workloads that policy can be attached to. */
export function serversCrd(ctx: CrdContext): CustomResourceDefinition {
  const versions: CustomResourceDefinitionVersion[] = [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'policy.linkerd.io/v1alpha1 Server is deprecated; use policy.linkerd.io/v1beta1 Server',
      schema: { openAPIV3Schema: resource(v1alpha1Spec()) },
    },
    {
      name: 'v1beta1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'policy.linkerd.io/v1beta1 Server is deprecated; use policy.linkerd.io/v1beta3 Server',
      schema: { openAPIV3Schema: resource(v1beta1Spec()) },
      additionalPrinterColumns: portAndProtocolColumns(),
    },
    {
      name: 'v1beta2',
      served: true,
      storage: false,
      schema: { openAPIV3Schema: resource(selectorChoiceSpec(false)) },
      additionalPrinterColumns: portAndProtocolColumns(),
    },
    {
      name: 'v1beta3',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: resource(selectorChoiceSpec(true)) },
      additionalPrinterColumns: [
        ...portAndProtocolColumns(),
        {
          name: 'Access Policy',
          type: 'string',
          description: 'What happens to traffic no authorization matches',
          jsonPath: '.spec.accessPolicy',
        },
      ],
    },
  ];

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: { kind: 'Server', plural: 'servers', singular: 'server', shortNames: ['srv'] },
    versions,
  });
}
