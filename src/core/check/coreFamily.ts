import { IDENTITY_CHECKS, WEBHOOK_CHECKS } from './checks/certificates.js';
import { CNI_CHECKS } from './checks/cni.js';
import { CONFIG_CHECKS, EXISTENCE_CHECKS, LINKERD_CRD_CHECKS } from './checks/controlPlane.js';
import { DATA_PLANE_CHECKS, DATA_PLANE_IDENTITY_CHECKS } from './checks/dataPlane.js';
import { EXTENSION_NAMESPACE_CHECKS, HA_CHECKS } from './checks/extras.js';
import { KUBERNETES_CHECKS } from './checks/kubernetes.js';
import { PRE_INSTALL_CHECKS } from './checks/preInstall.js';
import { CONTROL_PLANE_PROXY_CHECKS, CONTROL_PLANE_VERSION_CHECKS, VERSION_CHECKS } from './checks/versions.js';
import { coreOptions } from './coreOptions.js';
import type { CheckCategory, CheckFamily } from './family.js';
import type { CheckMode } from './types.js';

const DEFINED = [
  ...KUBERNETES_CHECKS,
  ...PRE_INSTALL_CHECKS,
  ...LINKERD_CRD_CHECKS,
  ...EXISTENCE_CHECKS,
  ...CONFIG_CHECKS,
  ...CNI_CHECKS,
  ...IDENTITY_CHECKS,
  ...WEBHOOK_CHECKS,
  ...DATA_PLANE_IDENTITY_CHECKS,
  ...VERSION_CHECKS,
  ...CONTROL_PLANE_VERSION_CHECKS,
  ...CONTROL_PLANE_PROXY_CHECKS,
  ...DATA_PLANE_CHECKS,
  ...HA_CHECKS,
  ...EXTENSION_NAMESPACE_CHECKS,
];

const ALWAYS: CheckMode[] = ['default', 'pre', 'proxy', 'crds'];
/** The control plane's categories: checked by default and with --proxy. */
const INSTALLED: CheckMode[] = ['default', 'proxy'];

const category = (id: string, code: number, modes: CheckMode[], when?: CheckCategory['when']): CheckCategory => ({
  id,
  code,
  modes,
  ...(when ? { when } : {}),
  checks: DEFINED.filter((c) => c.category === id),
});

/**
 * The core checks, in the real CLI's global execution order, with the codes their ids have
 * always had. The family owns codes 10–49; extension families take ranges above.
 */
export const CORE_CHECK_FAMILY: CheckFamily = {
  name: 'core',
  codes: { first: 10, last: 49 },
  categories: [
    category('kubernetes-api', 10, ALWAYS),
    category('kubernetes-version', 11, ALWAYS),
    category('gateway-api-crd', 12, ALWAYS),
    category('pre-kubernetes-setup', 13, ['pre']),
    category('linkerd-crd', 14, ['crds']),
    category('linkerd-existence', 15, INSTALLED),
    category('linkerd-config', 16, INSTALLED),
    // Before installing, the CNI plugin is checked only when the user says it is there.
    category('linkerd-cni-plugin', 17, ['default', 'pre', 'proxy'], { pre: (o) => coreOptions(o).cniEnabled }),
    category('linkerd-identity', 18, INSTALLED),
    category('linkerd-webhooks-and-apisvc-tls', 19, INSTALLED),
    category('linkerd-identity-data-plane', 20, ['proxy']),
    category('linkerd-version', 21, ALWAYS),
    category('control-plane-version', 22, ['default']),
    category('linkerd-control-plane-proxy', 23, INSTALLED),
    category('linkerd-data-plane', 24, ['proxy']),
    // An id the real CLI enables with --proxy but which has no checks of its own.
    category('linkerd-opaque-ports-definition', 25, ['proxy']),
    category('linkerd-ha-checks', 26, INSTALLED),
    category('linkerd-extension-checks', 27, ['default']),
  ],
};
