/** The Linkerd release this CLI renders and speaks for (a string: a build may leave it empty). */
export const LINKERD_VERSION: string = 'edge-26.9.1';

/** Version of the linkerd-crds chart recorded in `linkerd-config` and on CRDs. */
export const CRDS_CHART_VERSION = '2026.9.1';

/** Version of the control-plane chart (label `helm.sh/chart`). */
export const CONTROL_PLANE_CHART_VERSION = '2026.9.1';

export const DEFAULT_REGISTRY = 'cr.l5d.io/linkerd';

/** The client version, honouring LINKERD_CONTAINER_VERSION_OVERRIDE like the real CLI does for unset builds. */
export function clientVersion(env: NodeJS.ProcessEnv = process.env): string {
  return LINKERD_VERSION || env.LINKERD_CONTAINER_VERSION_OVERRIDE || 'dev-undefined';
}

/** `linkerd/cli <version>`: the value of `linkerd.io/created-by` on what the CLI renders. */
export function cliCreatedBy(version: string = LINKERD_VERSION): string {
  return `linkerd/cli ${version}`;
}
