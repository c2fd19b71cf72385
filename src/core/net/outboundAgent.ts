import http from 'node:http';
import https from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { proxyFromEnvironment, refuseSocks } from './proxyFromEnvironment.js';

/*
 * How every outbound request of the CLI connects: directly, or through the proxy that
 * proxyFromEnvironment (or a kubeconfig's proxy-url) names. https goes through a CONNECT tunnel
 * with TLS to the target inside it, so the kubeconfig's CA, client certificate and
 * tls-server-name, and NODE_EXTRA_CA_CERTS, apply as without a proxy. This is the node:https side
 * (hpagent, the library client-node uses for proxy-url); fetch users have outboundFetch.
 */

export interface OutboundAgent {
  agent: http.Agent;
  /** The proxy in use, for error messages (`proxyconnect tcp: …`). */
  proxy?: URL;
}

/** The agent for node:http(s) requests to `target`; `proxy` defaults to the environment's choice for it. */
export function outboundAgent(target: URL, options: https.AgentOptions, proxy: URL | undefined = proxyFromEnvironment(target)): OutboundAgent {
  if (proxy) refuseSocks(proxy);
  if (target.protocol === 'https:') return { agent: proxy ? new HttpsProxyAgent({ ...options, proxy }) : new https.Agent(options), proxy };
  const { keepAlive, maxSockets } = options;
  return { agent: proxy ? new HttpProxyAgent({ keepAlive, maxSockets, proxy }) : new http.Agent({ keepAlive, maxSockets }), proxy };
}
