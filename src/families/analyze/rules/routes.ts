import { isServerParent, key, parentRefs } from '../indexes.js';
import { didYouMean } from '../nearest.js';
import type { RuleGroup } from './group.js';

/** Route kinds that a Server of each proxyProtocol can never serve. */
const INCOMPATIBLE: Readonly<Record<string, string>> = {
  opaque: 'opaque Servers carry no HTTP, so no route applies',
  TLS: 'TLS Servers are not terminated by the proxy, so no route applies',
  gRPC: 'gRPC Servers use only GRPCRoutes',
};

export const routeRules: RuleGroup = {
  rules: [
    {
      code: 'LA6001',
      severity: 'error',
      title: 'Route parentRef to a missing Server',
      what: 'An HTTPRoute or GRPCRoute has a parentRef of kind Server (group policy.linkerd.io) naming no Server of its namespace.',
      why: 'The route is not accepted (status NoMatchingParent) and never applies; its authorizations and filters do nothing.',
      fix: 'Name an existing Server; the message suggests the nearest name when it looks like a typo.',
    },
    {
      code: 'LA6002',
      severity: 'error',
      title: 'Route attached to an opaque, TLS or gRPC Server',
      what: 'An HTTPRoute is attached to a Server whose proxyProtocol is opaque, TLS or gRPC.',
      why: 'Opaque and TLS traffic has no HTTP requests to route, and a gRPC Server serves only GRPCRoutes: the route never matches, and its route-level authorizations never apply.',
      fix: "Attach the route to an HTTP Server, or change the Server's proxyProtocol (use a GRPCRoute for gRPC).",
    },
    {
      code: 'LA6003',
      severity: 'error',
      title: 'Server parentRef with a port, section name or other namespace',
      what: "A parentRef to a Server sets `port`, `sectionName`, or a namespace other than the route's.",
      why: 'The policy controller rejects the whole route ("route resource may not reference a parent by port", …) and ignores it.',
      fix: "Reference the Server by name only, from a route in the Server's namespace.",
    },
  ],
  check({ index }, report) {
    for (const route of index.routes.values()) {
      for (const p of parentRefs(route)) {
        if (!isServerParent(p)) continue;
        const path = ['spec', 'parentRefs', p.index];
        if (p.namespace !== undefined && p.namespace !== route.namespace) {
          report(
            'LA6003',
            route,
            `route resource may not reference a parent Server in an other namespace (${p.namespace}); the whole route is ignored. Put the route in the Server's namespace`,
            [...path, 'namespace'],
          );
          continue;
        }
        if (p.port !== undefined)
          report(
            'LA6003',
            route,
            'route resource may not reference a parent by port; the whole route is ignored. Remove parentRefs[].port (the Server sets the port)',
            [...path, 'port'],
          );
        if (p.sectionName !== undefined)
          report('LA6003', route, 'route resource may not reference a parent by section name; the whole route is ignored. Remove parentRefs[].sectionName', [
            ...path,
            'sectionName',
          ]);
        const server = index.servers.get(key(route.namespace, p.name));
        if (!server) {
          report(
            'LA6001',
            route,
            `parentRef names Server "${p.name}", which is not in namespace ${route.namespace}${didYouMean(p.name, index.namesOf('Server', route.namespace))}; the route is never accepted`,
            [...path, 'name'],
          );
          continue;
        }
        const why = INCOMPATIBLE[server.proxyProtocol];
        if (why && !(route.kind === 'GRPCRoute' && server.proxyProtocol === 'gRPC')) {
          report(
            'LA6002',
            route,
            `attached to Server ${server.object.name}, whose proxyProtocol is ${server.proxyProtocol}: ${why}; attach it to an HTTP Server`,
            [...path, 'name'],
          );
        }
      }
    }
  },
};
