import { loadUndici } from '../kube/clientNode.js';
import { proxyFromEnvironment, refuseSocks } from './proxyFromEnvironment.js';

/*
 * The fetch side of outbound connections (outboundAgent is the node:https side): undici's
 * ProxyAgent as the dispatcher when proxyFromEnvironment names a proxy. https goes through a
 * CONNECT tunnel; plain http goes to the proxy in absolute form, as Go sends it. No node:http
 * import here: this module is part of the start-up snapshot.
 */

/** Go sends `Proxy-Authorization: Basic` whenever the proxy URL has user information. */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

type Dispatcher = import('undici').Dispatcher;
const dispatchers = new Map<string, Promise<Dispatcher>>();

export interface OutboundFetch {
  /** Extra `fetch` init: the proxy's dispatcher, when a proxy applies. */
  init: { dispatcher?: Dispatcher };
  proxy?: URL;
}

/** What `fetch(target, …)` needs to go where the environment says (one dispatcher per proxy, reused). */
export async function outboundFetch(target: URL, proxy: URL | undefined = proxyFromEnvironment(target)): Promise<OutboundFetch> {
  if (!proxy) return { init: {} };
  refuseSocks(proxy);
  let dispatcher = dispatchers.get(proxy.href);
  if (!dispatcher) {
    const token = proxyAuthorization(proxy);
    const uri = `${proxy.protocol}//${proxy.host}`;
    dispatcher = loadUndici().then((u) => new u.ProxyAgent({ uri, proxyTunnel: false, ...(token ? { token } : {}) }));
    dispatchers.set(proxy.href, dispatcher);
  }
  return { init: { dispatcher: await dispatcher }, proxy };
}
