import http from 'node:http';
import https from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { UserError } from '../errors.js';
import { loadUndici } from '../kube/clientNode.js';
import { proxyFromEnvironment } from './proxyFromEnvironment.js';

/*
 * How every outbound request of the CLI connects: directly, or through the proxy that
 * proxyFromEnvironment (or a kubeconfig's proxy-url) names. https goes through a CONNECT tunnel
 * with TLS to the target inside it, so the kubeconfig's CA, client certificate and
 * tls-server-name, and NODE_EXTRA_CA_CERTS, apply as without a proxy. node:https users get an
 * Agent (hpagent, the library client-node uses for proxy-url); fetch users a dispatcher
 * (undici's ProxyAgent), which like Go sends plain-http requests to the proxy in absolute form.
 */

export interface OutboundAgent {
  agent: http.Agent;
  /** The proxy in use, for error messages (`proxyconnect tcp: …`). */
  proxy?: URL;
}

function refuseSocks(proxy: URL): void {
  if (proxy.protocol === 'socks5:') {
    throw new UserError(`proxy ${proxy.protocol}//${proxy.host}: SOCKS5 proxies are supported only as a kubeconfig cluster's proxy-url, not from HTTPS_PROXY/HTTP_PROXY`);
  }
}

/** The agent for node:http(s) requests to `target`; `proxy` defaults to the environment's choice for it. */
export function outboundAgent(target: URL, options: https.AgentOptions, proxy: URL | undefined = proxyFromEnvironment(target)): OutboundAgent {
  if (proxy) refuseSocks(proxy);
  if (target.protocol === 'https:') return { agent: proxy ? new HttpsProxyAgent({ ...options, proxy }) : new https.Agent(options), proxy };
  const { keepAlive, maxSockets } = options;
  return { agent: proxy ? new HttpProxyAgent({ keepAlive, maxSockets, proxy }) : new http.Agent({ keepAlive, maxSockets }), proxy };
}

/** Go sends `Proxy-Authorization: Basic` whenever the proxy URL has user information. */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

type Dispatcher = NonNullable<RequestInit['dispatcher']>;
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
    dispatcher = loadUndici().then((u) => new u.ProxyAgent({ uri, proxyTunnel: false, ...(token ? { token } : {}) }) as Dispatcher);
    dispatchers.set(proxy.href, dispatcher);
  }
  return { init: { dispatcher: await dispatcher }, proxy };
}
