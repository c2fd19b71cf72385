import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import { type Schema, arr, described, freeformObject, obj, oneOfStrings, str, timestamp } from '../../../../../templates/crds/schema.js';
import type { MulticlusterValues } from '../values.js';
import { createdBy, labels } from './metadata.js';

/*
 * The Link CRD (links.multicluster.linkerd.io). Three versions are served, none converted (the
 * fields only grow): v1alpha1 without status, v1alpha2 adding the federated selector, a duration
 * format on the probe period and the status the controllers write, v1alpha3 (stored) adding the
 * annotation and label exclusions. Every spec scalar is a string, ports included.
 */

function labelSelector(description: string): Schema {
  return described(
    description,
    obj({
      matchLabels: freeformObject(),
      matchExpressions: described(
        'List of selector requirements',
        arr(
          described(
            'A selector item requires a key and an operator',
            obj(
              {
                key: described('Label key that selector should apply to', str()),
                operator: described('Evaluation of a label in relation to set', oneOfStrings(['In', 'NotIn', 'Exists', 'DoesNotExist'])),
                values: arr(str()),
              },
              ['key', 'operator'],
            ),
          ),
        ),
      ),
    }),
  );
}

function probeSpec(periodIsDuration: boolean): Schema {
  return described(
    'Spec for gateway health probe',
    obj({
      failureThreshold: described('Minimum consecutive failures for the probe to be considered failed', str({ default: '3' })),
      path: described('Path of remote gateway health endpoint', str()),
      period: described('Interval in between probe requests', str(periodIsDuration ? { format: 'duration' } : {})),
      port: described('Port of remote gateway health endpoint', str()),
      timeout: described('Probe request timeout', str({ default: '30s', format: 'duration' })),
    }),
  );
}

interface SpecFields {
  federated: boolean;
  exclusions: boolean;
}

function linkSpec(f: SpecFields): Schema {
  const properties: Record<string, Schema> = {
    clusterCredentialsSecret: described('Kubernetes secret of target cluster', str()),
    gatewayAddress: described('Gateway address of target cluster', str()),
    gatewayIdentity: described('Gateway Identity FQDN', str()),
    gatewayPort: described('Gateway Port', str()),
    probeSpec: probeSpec(f.federated),
    selector: labelSelector('Kubernetes Label Selector'),
    remoteDiscoverySelector: labelSelector('Selector for Services to mirror in remote discovery mode'),
  };
  if (f.federated) properties.federatedServiceSelector = labelSelector('Selector for federated service memebers');
  properties.targetClusterName = described('Name of target cluster to link to', str());
  properties.targetClusterDomain = described('Domain name of target cluster to link to', str());
  properties.targetClusterLinkerdNamespace = described('Name of namespace Linkerd control plane is installed in on target cluster', str());
  if (f.exclusions) {
    // linkerd's descriptions of these two were not available; these are ours.
    properties.excludedAnnotations = described('Annotations to exclude when mirroring services', arr(str()));
    properties.excludedLabels = described('Labels to exclude when mirroring services', arr(str()));
  }
  return obj(properties);
}

/** A reference to a Service, as the status entries carry it (Gateway API's ParentReference shape). */
function serviceRef(description: string): Schema {
  return described(
    description,
    obj(
      {
        group: described(
          'Group is the group of the referent.',
          str({ default: 'core', maxLength: 253, pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$' }),
        ),
        kind: described(
          'Kind is kind of the referent.',
          str({ default: 'Service', maxLength: 63, minLength: 1, pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$' }),
        ),
        name: described('Name is the name of the referent.', str({ maxLength: 253, minLength: 1 })),
        namespace: described('Namespace is the namespace of the referent.', str({ maxLength: 63, minLength: 1, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' })),
      },
      ['name', 'namespace'],
    ),
  );
}

function condition(): Schema {
  return described(
    'The status of a condition',
    obj(
      {
        lastTransitionTime: described(
          'lastTransitionTime is the last time the condition transitioned from one status to another. This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.',
          timestamp(),
        ),
        message: described('message is a human readable message indicating details about the transition. This may be an empty string.', str()),
        reason: described(
          "reason contains a programmatic identifier indicating the reason for the condition's last transition. Producers of specific condition types may define expected values and meanings for this field, and whether the values are considered a guaranteed API. The value should be a CamelCase string. This field may not be empty.",
          str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
        ),
        status: described('status of the condition, one of True, False, Unknown.', oneOfStrings(['True', 'False', 'Unknown'])),
        type: described(
          'type of condition in CamelCase or in foo.example.com/CamelCase. --- Many .condition.type values are consistent across resources like Available, but because arbitrary conditions can be useful (see .node.status.conditions), the ability to deconflict is important. The regex it matches is (dns1123SubdomainFmt/)?(qualifiedNameFmt)',
          str({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }),
        ),
        localRef: serviceRef('LocalRef corresponds with the Service in the local cluster that this Link is managing.'),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
  );
}

function serviceStatus(description: string, conditionsDescription: string): Schema {
  return described(
    description,
    obj(
      {
        conditions: described(conditionsDescription, arr(condition())),
        controllerName: described(
          'ControllerName is a domain/path string that indicates the name of the controller that wrote this status. This corresponds with the controllerName field on GatewayClass. \n Example: "example.net/gateway-controller". \n The format of this field is DOMAIN "/" PATH, where DOMAIN and PATH are valid Kubernetes names (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names). \n Controllers MUST populate this field when writing status. Controllers should ensure that entries to status populated with their ControllerName are cleaned up when they are no longer necessary.',
          str({
            maxLength: 253,
            minLength: 1,
            pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$",
          }),
        ),
        remoteRef: serviceRef('RemoteRef corresponds with the Service in the target cluster that this Link is mirroring.'),
      },
      ['controllerName', 'remoteRef'],
    ),
  );
}

function linkStatus(): Schema {
  return described(
    'Status defines the state of resources managed by this Link',
    obj({
      mirrorServices: described(
        'List of services mirrored by this Link',
        arr(serviceStatus('The status of a mirrored service', 'Conditions of the mirrored service')),
      ),
      federatedServices: described(
        'List of federated services mirrored by this Link',
        arr(serviceStatus('The status of a federated service', 'Conditions of the federated service')),
      ),
    }),
  );
}

function version(name: string, storage: boolean, spec: SpecFields): CustomResourceDefinitionVersion {
  const withStatus = spec.federated;
  const root = obj(withStatus ? { spec: linkSpec(spec), status: linkStatus() } : { spec: linkSpec(spec) });
  const v: CustomResourceDefinitionVersion = { name, served: true, storage, schema: { openAPIV3Schema: root } };
  if (withStatus) v.subresources = { status: {} };
  return v;
}

export function linkCrd(values: MulticlusterValues): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'links.multicluster.linkerd.io', labels: labels(values), annotations: createdBy(values) },
    spec: {
      group: 'multicluster.linkerd.io',
      versions: [
        version('v1alpha1', false, { federated: false, exclusions: false }),
        version('v1alpha2', false, { federated: true, exclusions: false }),
        version('v1alpha3', true, { federated: true, exclusions: true }),
      ],
      scope: 'Namespaced',
      names: { plural: 'links', singular: 'link', kind: 'Link' },
    },
  };
}
