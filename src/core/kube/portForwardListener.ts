import net from 'node:net';
import type { KubeClient } from './kubeClient.js';
import { portForward } from './portForward.js';

/*
 * A local listener whose every connection is a new port-forward to a pod's port, as kubectl
 * port-forward and the real CLI's pkg/k8s PortForward serve one: gRPC clients, HTTP clients and
 * browsers connect to it as to the pod. Shared by every family that reaches a pod this way.
 */

export interface ForwardListener {
  /** The address listened on, as given (`localhost`, `127.0.0.1`, …). */
  readonly host: string;
  /** The port listened on (the ephemeral one when 0 was asked for). */
  readonly port: number;
  /** Settles once the listener is closed. */
  readonly closed: Promise<void>;
  close(): void;
}

export interface ForwardListenerOptions {
  /** Where to listen (default 127.0.0.1). */
  host?: string;
  /** The local port (default 0: an ephemeral one). */
  port?: number;
}

export async function listenForward(kube: KubeClient, namespace: string, pod: string, port: number, o: ForwardListenerOptions = {}): Promise<ForwardListener> {
  const host = o.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    portForward(kube, namespace, pod, port).then(
      (stream) => {
        if (socket.destroyed) {
          stream.destroy();
          return;
        }
        socket.pipe(stream).pipe(socket);
        stream.on('error', () => socket.destroy());
        socket.on('close', () => stream.destroy());
      },
      () => socket.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(o.port ?? 0, host, () => {
      listener.removeListener('error', reject);
      resolve();
    });
  });
  const closed = new Promise<void>((resolve) => listener.once('close', () => resolve()));
  return {
    host,
    port: (listener.address() as net.AddressInfo).port,
    closed,
    close() {
      for (const s of sockets) s.destroy();
      listener.close();
    },
  };
}
