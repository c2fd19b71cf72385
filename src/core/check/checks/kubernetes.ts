import { fail, pass, type CheckDefinition } from '../types.js';
import { CREATED_BY_ANNOTATION } from '../../mesh/names.js';
import { GATEWAY_API_INSTALL_URL } from '../../mesh/gatewayApi.js';

/** linkerd's minimum Kubernetes version for this release. */
export const MIN_KUBERNETES_VERSION: [number, number, number] = [1, 31, 0];

/** `v1.34.1`, `v1.31.2+k3s1`, `1.32.0-gke.100` → [1, 34, 1]; undefined when it is not a version. */
export function parseKubernetesVersion(gitVersion: string): [number, number, number] | undefined {
  const m = gitVersion.trim().match(/^v?(\d+)\.(\d+)\.(\d+)/);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function atLeast(v: readonly [number, number, number], min: readonly [number, number, number]): boolean {
  for (const [i, part] of v.entries()) if (part !== min[i]) return part > (min[i] ?? 0);
  return true;
}

const GATEWAY_API_INSTALL = `kubectl apply --server-side -f ${GATEWAY_API_INSTALL_URL}`;

/** The CRDs whose presence (and owner) tells whether Gateway API is installed (linkerd's CheckGatewayAPICRDs). */
const GATEWAY_API_PROBES = ['httproutes.gateway.networking.k8s.io', 'grpcroutes.gateway.networking.k8s.io'];

export const KUBERNETES_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1001',
    category: 'kubernetes-api',
    description: 'can initialize the client',
    severity: 'fatal',
    hintAnchor: 'k8s-api',
    retryable: false,
    async run(ctx) {
      await ctx.client();
      return pass();
    },
  },
  {
    id: 'L5D1002',
    category: 'kubernetes-api',
    description: 'can query the Kubernetes API',
    severity: 'fatal',
    hintAnchor: 'k8s-api',
    retryable: false,
    async run(ctx) {
      await ctx.serverVersion();
      return pass();
    },
  },
  {
    id: 'L5D1101',
    category: 'kubernetes-version',
    description: 'is running the minimum Kubernetes API version',
    severity: 'error',
    hintAnchor: 'k8s-version',
    retryable: false,
    async run(ctx) {
      const info = await ctx.serverVersion();
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- objects from the API server are not validated against their types
      const gitVersion = info.gitVersion ?? '';
      const v = parseKubernetesVersion(gitVersion);
      if (!v) return fail(`could not parse the Kubernetes version ${JSON.stringify(gitVersion)}`);
      if (atLeast(v, MIN_KUBERNETES_VERSION)) return pass();
      return fail(`Kubernetes is on version [${v.join('.')}], but version [${MIN_KUBERNETES_VERSION.join('.')}] or more recent is required`);
    },
  },
  {
    id: 'L5D1201',
    category: 'gateway-api-crd',
    description: 'Gateway API CRDs are installed',
    severity: 'fatal',
    hintAnchor: 'gateway-api-crd',
    retryable: false,
    async run(ctx) {
      const crds = await ctx.list('customresourcedefinitions');
      const present = GATEWAY_API_PROBES.map((name) => crds.find((c) => c.metadata?.name === name)).filter((c) => c !== undefined);
      if (present.length === 0) {
        return fail(`The Gateway API CRDs must be installed prior to installing Linkerd. Run:\n    ${GATEWAY_API_INSTALL}`);
      }
      // Linkerd-managed CRDs carry linkerd.io/created-by; any other owner must serve v1.
      if (present.some((c) => c.metadata?.annotations?.[CREATED_BY_ANNOTATION])) return pass();
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- objects from the API server are not validated against their types
      const old = present.find((c) => !(c.spec?.versions ?? []).some((v) => v.name === 'v1'));
      if (old) return fail(`the ${old.metadata?.name} CRD is missing the v1 version, please upgrade to Gateway API v1.1.1 or later`);
      return pass();
    },
  },
];
