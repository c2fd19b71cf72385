import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Pod, Secret } from 'kubernetes-types/core/v1.js';
import { LINKERD_CRD_EXPECTATIONS } from '../../../templates/crds/index.js';
import { UserError } from '../errors.js';
import { connectKube, type KubeClient } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { openProbed } from '../kube/openProbed.js';
import { CONTROL_PLANE_NS_LABEL, ISSUER_SECRET, LINKERD_CONFIG } from '../mesh/names.js';
import { type GatewayApiState, gatewayApiState } from '../mesh/gatewayApi.js';
import { assertEndpointSlices } from '../mesh/endpointSlices.js';
import { findOverridesSecret } from '../mesh/loadStoredValues.js';
import type { ExternalIssuerData } from './identityCredentials.js';

/*
 * What `linkerd install` asks the cluster before rendering (linkerd's cli/cmd/install.go), with the real CLI's
 * messages. Reads only; nothing is created.
 */

const CANNOT_CONNECT = (err: string) =>
  `Unable to install the Linkerd control plane. Cannot connect to the Kubernetes cluster:\n\n${err}\n\nYou can use the --ignore-cluster flag if you just want to generate the installation config.\n`;

export const CRDS_MISSING = 'Linkerd CRDs must be installed first. Run linkerd install with the --crds flag.\n';

const CONFIG_CONFLICT = (ns: string) =>
  `Can't install the Linkerd control plane in the '${ns}' namespace. Reason: ConfigMap/linkerd-config already exists.\nRun the command \`linkerd upgrade\`, if you are looking to upgrade Linkerd.\n`;

export const DOCKER_NODES =
  'there are nodes using the docker container runtime and proxy-init container must run as root user.\ntry installing linkerd via --set proxyInit.runAsRoot=true\n';

const keyMissing = (key: string, what: string) =>
  `key ${key} containing the ${what} needs to exist in secret ${ISSUER_SECRET} if --identity-external-issuer=true`;

export class InstallCluster {
  private crdList?: Promise<CustomResourceDefinition[]>;

  private constructor(readonly client: KubeClient) {}

  /** A cluster reached through `client` without the `/version` probe (upgrade, prune). */
  static of(client: KubeClient): InstallCluster {
    return new InstallCluster(client);
  }

  /** The `kubernetes-api` checks: a client can be built and the API answers `/version`. */
  static async connect(sel: KubeSelection): Promise<InstallCluster> {
    let client: KubeClient;
    try {
      client = await openProbed(
        () => connectKube(sel),
        (c) => c.serverVersion(),
      );
    } catch (e) {
      throw UserError.verbatim(CANNOT_CONNECT((e as Error).message), { cause: e });
    }
    return new InstallCluster(client);
  }

  private crds(): Promise<CustomResourceDefinition[]> {
    this.crdList ??= this.client.list('customresourcedefinitions');
    return this.crdList;
  }

  /**
   * What is wrong with the Linkerd CRDs, in linkerd's words (`missing <crd>`, `CRD <crd> is
   * missing version <v>`); empty when each exists and serves its last listed version.
   */
  async crdProblems(): Promise<string[]> {
    const byName = new Map((await this.crds()).map((c) => [c.metadata?.name, c]));
    return LINKERD_CRD_EXPECTATIONS.flatMap((want) => {
      const crd = byName.get(want.name);
      if (!crd) return [`missing ${want.name}`];
      return crd.spec.versions.some((v) => v.name === want.lastVersion) ? [] : [`CRD ${want.name} is missing version ${want.lastVersion}`];
    });
  }

  /** Every Linkerd CRD exists and serves its last listed version. */
  async assertLinkerdCrds(): Promise<void> {
    let problems: string[];
    try {
      problems = await this.crdProblems();
    } catch (e) {
      throw UserError.verbatim(CRDS_MISSING, { cause: e });
    }
    if (problems.length > 0) throw UserError.verbatim(CRDS_MISSING);
  }

  /** linkerd-config must not exist yet: a second install would clobber the first. */
  async assertNoLinkerdConfig(namespace: string): Promise<void> {
    const cm = await this.client.find('configmaps', LINKERD_CONFIG, namespace);
    if (cm) throw UserError.verbatim(CONFIG_CONFLICT(namespace));
  }

  /** proxy-init cannot run unprivileged on Docker-runtime nodes. */
  async assertNoDockerNodes(): Promise<void> {
    const nodes = await this.client.list('nodes', { limit: 500 });
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- objects from the API server are not validated against their types
    if (nodes.some((n) => n.status?.nodeInfo?.containerRuntimeVersion?.startsWith('docker:'))) throw UserError.verbatim(DOCKER_NODES);
  }

  /**
   * The API server's ports from Service `default/kubernetes` (its port and integer target
   * ports), which control-plane proxies must not intercept; undefined when unreadable.
   */
  async apiServerPorts(): Promise<string | undefined> {
    try {
      const svc = await this.client.get('services', 'kubernetes', 'default');
      const ports: string[] = [];
      for (const p of svc.spec?.ports ?? []) {
        ports.push(String(p.port));
        if (typeof p.targetPort === 'number') ports.push(String(p.targetPort));
      }
      return ports.length ? ports.join(',') : undefined;
    } catch {
      return undefined;
    }
  }

  /** `enableEndpointSlices` needs the discovery.k8s.io/v1 API and at least one slice. */
  assertEndpointSlices(): Promise<void> {
    return assertEndpointSlices(this.client);
  }

  /** The external issuer's Secret, which cert-manager (or the user) must have created. */
  async externalIssuer(namespace: string): Promise<ExternalIssuerData> {
    const secret: Secret = await this.client.get('secrets', ISSUER_SECRET, namespace);
    const data = secret.data ?? {};
    const read = (key: string, what: string) => {
      if (data[key] === undefined) throw new UserError(keyMissing(key, what));
      return Buffer.from(data[key], 'base64').toString('utf8');
    };
    return { anchors: read('ca.crt', 'trust anchors'), crt: read('tls.crt', 'issuer certificate'), key: read('tls.key', 'issuer key') };
  }

  /** Secret `linkerd-config-overrides`, or undefined when the control plane was not installed by the CLI. */
  overridesSecret(namespace: string): Promise<Secret | undefined> {
    return findOverridesSecret(this.client, namespace);
  }

  /** Pods with a `linkerd.io/control-plane-ns` label, in every namespace. */
  meshedPods(): Promise<Pod[]> {
    return this.client.list('pods', { labelSelector: CONTROL_PLANE_NS_LABEL, limit: 500 });
  }

  /** CronJob `linkerd-heartbeat`, or undefined (heartbeat disabled, or not installed by the CLI). */
  heartbeat(namespace: string): Promise<CronJob | undefined> {
    return this.client.find('cronjobs', 'linkerd-heartbeat', namespace);
  }

  async gatewayApi(): Promise<GatewayApiState> {
    return gatewayApiState(await this.crds());
  }

  close(): void {
    this.client.close();
  }
}
