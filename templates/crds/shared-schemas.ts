import { arr, described, freeformObject, int64, listMap, obj, oneOfStrings, str, timestamp, type Constraints, type Schema } from './schema.js';

// Name shapes Kubernetes and the Gateway API validate references against.
/** An API group: empty (the core group) or a DNS subdomain. */
export const GROUP_PATTERN = '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** A kind: CamelCase-ish, letters first. */
export const KIND_PATTERN = '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$';
/** A namespace or other DNS label. */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** A DNS subdomain (a precise hostname). */
export const DNS_SUBDOMAIN_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** metav1.Condition's type: an optional DNS-subdomain prefix, then a qualified name. */
const CONDITION_TYPE_PATTERN = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';
const CONDITION_REASON_PATTERN = '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$';

export const refGroup = (c: Constraints = {}): Schema => str({ maxLength: 253, pattern: GROUP_PATTERN, ...c });
export const refKind = (c: Constraints = {}): Schema => str({ minLength: 1, maxLength: 63, pattern: KIND_PATTERN, ...c });
export const refName = (c: Constraints = {}): Schema => str({ minLength: 1, maxLength: 253, ...c });
export const refNamespace = (c: Constraints = {}): Schema => str({ minLength: 1, maxLength: 63, pattern: DNS_LABEL_PATTERN, ...c });

/** A reference to one object in the policy's own namespace (what a policy applies to). */
export const localTargetRef = (): Schema =>
  obj(
    {
      group: described('API group of the target; the core group when empty.', refGroup()),
      kind: described('Kind of the target.', refKind()),
      name: described("Name of the target, in the policy's namespace.", refName()),
    },
    ['kind', 'name'],
  );

/**
 * A reference that may point across namespaces. Linkerd's older policy kinds only bound
 * the namespace's length; the rate-limit policy validates it as a DNS label. MeshTLS
 * identity refs may leave out `name` to mean "every object of that kind".
 */
export const namespacedRef = ({
  required = ['kind', 'name'],
  namespace = str({ maxLength: 253 }),
}: { required?: readonly string[]; namespace?: Schema } = {}): Schema =>
  obj(
    {
      group: described('API group of the object; the core group when empty.', refGroup()),
      kind: described('Kind of the object.', refKind()),
      name: described('Name of the object.', refName()),
      namespace: described("Namespace of the object; the referring object's own when unset.", namespace),
    },
    required,
  );

/** metav1.LabelSelector: matchLabels and matchExpressions are ANDed; empty selects all. */
export const labelSelector = (description?: string): Schema => {
  const selector = obj({
    matchLabels: described('Labels that must all be present with exactly these values.', freeformObject()),
    matchExpressions: described(
      'Label requirements that must all hold.',
      arr(
        obj(
          {
            key: described('The label the requirement is about.', str()),
            operator: described(
              'In/NotIn test the value against `values`; Exists/DoesNotExist test only the key.',
              oneOfStrings(['In', 'NotIn', 'Exists', 'DoesNotExist']),
            ),
            values: described('Values for In and NotIn; must be empty for Exists and DoesNotExist.', arr(str())),
          },
          ['key', 'operator'],
        ),
      ),
    ),
  });
  return description ? described(description, selector) : selector;
};

/** Client networks as CIDRs, each with optional carve-outs. */
export const networks = (): Schema =>
  arr(
    obj(
      {
        cidr: described('A network in CIDR notation.', str()),
        except: described('Addresses or networks inside `cidr` to leave out.', arr(str())),
      },
      ['cidr'],
    ),
  );

const conditionStatus = (): Schema => described('Whether the condition holds.', oneOfStrings(['True', 'False', 'Unknown']));
const conditionType = (): Schema =>
  described('What the condition is about, in CamelCase, optionally domain-prefixed.', str({ maxLength: 316, pattern: CONDITION_TYPE_PATTERN }));
const conditionReason = (): Schema =>
  described('Why the condition last changed, as a CamelCase word.', str({ minLength: 1, maxLength: 1024, pattern: CONDITION_REASON_PATTERN }));
const conditionMessage = (): Schema => described('Details for people; may be empty.', str({ maxLength: 32768 }));
const lastTransitionTime = (): Schema => described('When the status last changed.', timestamp());

/**
 * The lighter condition shape Linkerd's own controllers write (EgressNetwork,
 * HTTPLocalRateLimitPolicy, ExternalWorkload): only `status` and `type` are required.
 * ExternalWorkload adds `lastProbeTime` for its health probes.
 */
export const linkerdConditions = (opts: { withProbeTime?: boolean } = {}): Schema =>
  described(
    "Observations of the object's current state, one per type.",
    arr(
      obj(
        {
          ...(opts.withProbeTime ? { lastProbeTime: described('When the condition was last probed.', timestamp()) } : {}),
          lastTransitionTime: lastTransitionTime(),
          status: conditionStatus(),
          type: conditionType(),
          reason: conditionReason(),
          message: conditionMessage(),
        },
        ['status', 'type'],
      ),
    ),
  );

/** metav1.Condition as Gateway API route statuses use it: at most 8, keyed by type. */
export const metaConditions = (): Schema =>
  listMap(
    obj(
      {
        lastTransitionTime: lastTransitionTime(),
        message: conditionMessage(),
        observedGeneration: described('The metadata.generation the condition was computed from.', int64({ minimum: 0 })),
        reason: conditionReason(),
        status: conditionStatus(),
        type: conditionType(),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
    ['type'],
    { minItems: 1, maxItems: 8 },
  );
