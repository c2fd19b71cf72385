import { UserError } from '../../core/errors.js';
import { runningPodOf } from '../../core/kube/grpcForward.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import { listenForward, type ForwardListener } from '../../core/kube/portForwardListener.js';
import { connectCluster, vizNamespace } from './vizConnection.js';

/*
 * `viz dashboard` (linkerd's viz/cmd/dashboard.go): once viz answers (retried until `--wait`),
 * a local listener at `--address:--port` forwards to the `web` deployment's pod, port 8084, until
 * the process is interrupted. The viz namespace is found by its label (`--viz-namespace` is not
 * consulted, as in the real command).
 */

export const WEB_DEPLOYMENT = 'web';
export const WEB_PORT = 8084;
export const SHOW = ['linkerd', 'grafana', 'url'] as const;
export type Show = (typeof SHOW)[number];
const RETRY_MS = 5_000;

export interface DashboardRequest {
  cluster: KubeSelection;
  env: NodeJS.ProcessEnv;
  address: string;
  port: number;
  show: string;
  waitMs: number;
  /** Called before each retry (`Waiting for linkerd-viz extension to become available`). */
  onWaiting?: () => void;
}

export interface Dashboard {
  listener: ForwardListener;
  /** The Linkerd dashboard's URL, `http://<address>:<port>`. */
  webUrl: string;
  grafanaUrl: string;
  close(): void;
}

/** The real command's refusals of its flags, before anything else. */
export function validateDashboard(port: number, show: string): Show {
  if (port < 0) throw new UserError(`port must be greater than or equal to zero, was ${port}`);
  if (!(SHOW as readonly string[]).includes(show)) throw new UserError(`unknown value for 'show' param, was: ${show}, must be one of: linkerd, grafana, url`);
  return show as Show;
}

/** Go's words for a listener that cannot bind (`listen tcp 127.0.0.1:50750: bind: address already in use`). */
function listenError(e: unknown, req: Pick<DashboardRequest, 'address' | 'port'>): string {
  const err = e as NodeJS.ErrnoException;
  const at = `${req.address === 'localhost' ? '127.0.0.1' : req.address}:${req.port}`;
  if (err.code === 'EADDRINUSE') return `listen tcp ${at}: bind: address already in use`;
  if (err.code === 'EACCES') return `listen tcp ${at}: bind: permission denied`;
  if (err.code === 'EADDRNOTAVAIL') return `listen tcp ${at}: bind: cannot assign requested address`;
  return err.message;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function openDashboard(req: DashboardRequest): Promise<Dashboard> {
  const kube = await connectCluster(req.cluster, req.env);
  const deadline = Date.now() + req.waitMs;
  let target: { namespace: string; pod: string };
  try {
    for (;;) {
      try {
        const namespace = (await vizNamespace(kube)).metadata?.name ?? '';
        target = { namespace, pod: await runningPodOf(kube, namespace, WEB_DEPLOYMENT) };
        break;
      } catch (e) {
        if (Date.now() + RETRY_MS > deadline) throw e instanceof UserError ? e : new UserError((e as Error).message);
        req.onWaiting?.();
        await sleep(RETRY_MS);
      }
    }
  } catch (e) {
    kube.close();
    throw e;
  }
  let listener: ForwardListener;
  try {
    // Go listens on localhost's IPv4 address; the URL keeps the name.
    listener = await listenForward(kube, target.namespace, target.pod, WEB_PORT, {
      host: req.address === 'localhost' ? '127.0.0.1' : req.address,
      port: req.port,
    });
  } catch (e) {
    kube.close();
    throw UserError.verbatim(
      `Error running port-forward: ${listenError(e, req)}\nCheck for \`linkerd dashboard\` running in other terminal sessions, or use the \`--port\` flag.\n`,
    );
  }
  const host = req.address.includes(':') ? `[${req.address}]` : req.address;
  const webUrl = `http://${host}:${listener.port}`;
  return {
    listener,
    webUrl,
    grafanaUrl: `${webUrl}/grafana`,
    close() {
      listener.close();
      kube.close();
    },
  };
}
