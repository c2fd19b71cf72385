import type { CustomResourceDefinition, CustomResourceColumnDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, described, obj, portNumber, resource, str, type Schema } from './schema.js';
import { linkerdConditions } from './shared-schemas.js';

/**
 * The spec of both versions. v1beta1 renamed `meshTls` to `meshTLS` and allowed a second
 * workload IP so a dual-stack workload can list one IPv4 and one IPv6 address.
 */
function externalWorkloadSpec(meshTlsField: 'meshTls' | 'meshTLS', maxWorkloadIPs: number): Schema {
  const meshTls = described(
    'How peers verify the workload and how it terminates TLS.',
    obj(
      {
        identity: described("The identity in the workload's certificate.", str({ minLength: 1, maxLength: 253 })),
        serverName: described("The workload's DNS-style name, used as SNI.", str({ minLength: 1, maxLength: 253 })),
      },
      ['identity', 'serverName'],
    ),
  );
  return described(
    'How to reach the workload and how it identifies itself in the mesh.',
    obj(
      {
        [meshTlsField]: meshTls,
        ports: described(
          'Ports the workload exposes.',
          arr(
            obj(
              {
                name: described('Port name, as a Service targetPort can refer to it.', str()),
                port: described('Port number.', portNumber()),
                protocol: described('TCP or UDP.', str({ default: 'TCP' })),
              },
              ['port'],
            ),
          ),
        ),
        workloadIPs: described(
          'Addresses traffic for the workload can be sent to.',
          arr(obj({ ip: described('An IPv4 or IPv6 address.', str()) }), { maxItems: maxWorkloadIPs }),
        ),
      },
      [meshTlsField],
    ),
  );
}

const status = (): Schema => described('What the controllers report about the workload.', obj({ conditions: linkerdConditions({ withProbeTime: true }) }));

const identityAndAgeColumns = (field: string): CustomResourceColumnDefinition[] => [
  { name: 'Identity', type: 'string', jsonPath: `.spec.${field}.identity` },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** ExternalWorkload: a workload outside the cluster (a VM, a bare-metal host) enrolled in the mesh. */
export function externalWorkloadsCrd(ctx: CrdContext): CustomResourceDefinition {
  return namespacedCrd(ctx, {
    group: 'workload.linkerd.io',
    names: {
      categories: ['external'],
      kind: 'ExternalWorkload',
      listKind: 'ExternalWorkloadList',
      plural: 'externalworkloads',
      singular: 'externalworkload',
    },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: resource(externalWorkloadSpec('meshTls', 1), status()) },
        additionalPrinterColumns: identityAndAgeColumns('meshTls'),
      },
      {
        name: 'v1beta1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: resource(externalWorkloadSpec('meshTLS', 2), status()) },
        additionalPrinterColumns: identityAndAgeColumns('meshTLS'),
      },
    ],
  });
}
