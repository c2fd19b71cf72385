import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { UserError } from '../../../core/errors.js';
import { connectKube, type KubeClient } from '../../../core/kube/kubeClient.js';
import type { KubeSelection } from '../../../core/kube/kubeconfig.js';
import { openTap, TapStreamError, type TapStream } from './client.js';
import type { TapEvent } from './proto.js';
import { vizNamespace } from '../vizConnection.js';
import type { TapCommandParams } from './flags.js';
import { buildTapByResourceRequest } from './request.js';

/*
 * One tap from the command line: the kubeconfig's namespace as the default, the request built
 * (its refusals printed as the real CLI prints them, raw), viz's presence checked, the stream
 * opened. tap, top and profile each consume the events their own way.
 */

export interface OpenedTap {
  client: KubeClient;
  stream: TapStream;
  /** The canonical target type (`deployment`), for `-o wide`. */
  targetType: string;
  close(): void;
}

export async function startTap(cluster: KubeSelection, params: TapCommandParams, env: NodeJS.ProcessEnv): Promise<OpenedTap> {
  const client = await connectKube(cluster, { env });
  try {
    const namespace = params.namespace || client.namespace;
    let req;
    try {
      req = buildTapByResourceRequest({ ...params, namespace, toNamespace: params.toNamespace });
    } catch (e) {
      if (e instanceof UserError) throw UserError.verbatim(`${e.message}\n`);
      throw e;
    }
    // linkerd's CheckClientOrExit, the part tap relies on: viz is installed (`--viz-namespace`, else
    // the namespace labelled `linkerd.io/extension: viz`; `linkerd-viz` for a user who may not list
    // namespaces). The real command also port-forwards to metrics-api here and discards it.
    await vizNamespace(client, params.vizNamespace);
    let stream: TapStream;
    try {
      stream = await openTap(client, req);
    } catch (e) {
      if (e instanceof UserError && !e.verbatim) throw UserError.verbatim(`${e.message}\n`);
      throw e;
    }
    return {
      client,
      stream,
      targetType: req.target.resource.type,
      close: () => {
        stream.close();
        client.close();
      },
    };
  } catch (e) {
    client.close();
    throw e;
  }
}

/**
 * Write one line per event to `out`, waiting for the stream to drain when it is full (so a slow
 * reader slows the tap, never fills memory). Resolves with the exit code: 0 when the server ends
 * the stream, 1 (message on `err`) when it breaks off or sends garbage.
 */
export async function printEvents(events: AsyncIterable<TapEvent>, render: (e: TapEvent) => string, out: Writable, err: Writable): Promise<number> {
  try {
    for await (const event of events) {
      if (!out.write(`${render(event)}\n`)) await once(out, 'drain');
    }
    return 0;
  } catch (e) {
    if (e instanceof TapStreamError) {
      err.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
