import type { FieldDef, MessageDef, ScalarType } from './schema.js';

/*
 * The linkerd2-proxy-api messages `diagnostics policy` and `diagnostics profile` read, as field
 * tables (number, proto name, type) written from the API's field numbers, each message's fields
 * in the order the API declares them (the order of the Go struct the real CLI marshals).
 * Packages: net, meta, http_types, http_route, grpc_route, destination, inbound, outbound.
 */

type Opts = Pick<FieldDef, 'repeated' | 'map' | 'oneof'>;
const f = (no: number, name: string, type: ScalarType | (() => MessageDef), opts: Opts = {}): FieldDef => ({ no, name, type, ...opts });
const list = { repeated: true } as const;
const oneof = (name: string): Opts => ({ oneof: name });
const msg = (name: string, fields: readonly FieldDef[]): MessageDef => ({ name, fields });
const EMPTY = (name: string): MessageDef => msg(name, []);

// google.protobuf.Duration
export const Duration: MessageDef = msg('Duration', [f(1, 'seconds', 'int64'), f(2, 'nanos', 'int32')]);

// io.linkerd.proxy.net
export const IPv6: MessageDef = msg('IPv6', [f(1, 'first', 'fixed64'), f(2, 'last', 'fixed64')]);
export const IPAddress: MessageDef = msg('IPAddress', [f(1, 'ipv4', 'fixed32', oneof('ip')), f(2, 'ipv6', () => IPv6, oneof('ip'))]);
export const IPNetwork: MessageDef = msg('IPNetwork', [f(1, 'ip', () => IPAddress), f(2, 'prefix_len', 'uint32')]);
export const TcpAddress: MessageDef = msg('TcpAddress', [f(1, 'ip', () => IPAddress), f(2, 'port', 'uint32')]);

// io.linkerd.proxy.meta
export const Resource: MessageDef = msg('Resource', [
  f(1, 'group', 'string'),
  f(2, 'kind', 'string'),
  f(3, 'name', 'string'),
  f(4, 'namespace', 'string'),
  f(5, 'section', 'string'),
  f(6, 'port', 'uint32'),
]);
export const Metadata: MessageDef = msg('Metadata', [f(1, 'default', 'string', oneof('kind')), f(2, 'resource', () => Resource, oneof('kind'))]);

// io.linkerd.proxy.http_types
export const HttpMethod: MessageDef = msg('HttpMethod', [f(1, 'registered', 'enum', oneof('type')), f(2, 'unregistered', 'string', oneof('type'))]);
export const Scheme: MessageDef = msg('Scheme', [f(1, 'registered', 'enum', oneof('type')), f(2, 'unregistered', 'string', oneof('type'))]);
const Header: MessageDef = msg('Header', [f(1, 'name', 'string'), f(2, 'value', 'bytes')]);
export const Headers: MessageDef = msg('Headers', [f(1, 'headers', () => Header, list)]);

// io.linkerd.proxy.http_route
const Suffix: MessageDef = msg('Suffix', [f(1, 'reverse_labels', 'string', list)]);
export const HostMatch: MessageDef = msg('HostMatch', [f(1, 'exact', 'string', oneof('match')), f(2, 'suffix', () => Suffix, oneof('match'))]);
const PathMatch: MessageDef = msg('PathMatch', [
  f(1, 'exact', 'string', oneof('kind')),
  f(2, 'prefix', 'string', oneof('kind')),
  f(3, 'regex', 'string', oneof('kind')),
]);
export const HeaderMatch: MessageDef = msg('HeaderMatch', [
  f(1, 'name', 'string'),
  f(2, 'exact', 'bytes', oneof('value')),
  f(3, 'regex', 'string', oneof('value')),
]);
const QueryParamMatch: MessageDef = msg('QueryParamMatch', [
  f(1, 'name', 'string'),
  f(2, 'exact', 'string', oneof('value')),
  f(3, 'regex', 'string', oneof('value')),
]);
export const HttpRouteMatch: MessageDef = msg('HttpRouteMatch', [
  f(1, 'path', () => PathMatch),
  f(2, 'headers', () => HeaderMatch, list),
  f(3, 'query_params', () => QueryParamMatch, list),
  f(4, 'method', () => HttpMethod),
]);
const HeaderModifier = (name: string): MessageDef => msg(name, [f(1, 'add', () => Headers), f(2, 'set', () => Headers), f(3, 'remove', 'string', list)]);
export const RequestHeaderModifier: MessageDef = HeaderModifier('RequestHeaderModifier');
export const ResponseHeaderModifier: MessageDef = HeaderModifier('ResponseHeaderModifier');
const PathModifier: MessageDef = msg('PathModifier', [f(1, 'full', 'string', oneof('replace')), f(2, 'prefix', 'string', oneof('replace'))]);
export const RequestRedirect: MessageDef = msg('RequestRedirect', [
  f(1, 'scheme', () => Scheme),
  f(2, 'host', 'string'),
  f(3, 'path', () => PathModifier),
  f(4, 'port', 'uint32'),
  f(5, 'status', 'uint32'),
]);
export const Ratio: MessageDef = msg('Ratio', [f(1, 'numerator', 'uint32'), f(2, 'denominator', 'uint32')]);
export const HttpFailureInjector: MessageDef = msg('HttpFailureInjector', [f(1, 'status', 'uint32'), f(2, 'message', 'string'), f(3, 'ratio', () => Ratio)]);

// io.linkerd.proxy.grpc_route
const GrpcRpcMatch: MessageDef = msg('GrpcRpcMatch', [f(1, 'service', 'string'), f(2, 'method', 'string')]);
export const GrpcRouteMatch: MessageDef = msg('GrpcRouteMatch', [f(1, 'rpc', () => GrpcRpcMatch), f(2, 'headers', () => HeaderMatch, list)]);
export const GrpcFailureInjector: MessageDef = msg('GrpcFailureInjector', [f(1, 'code', 'uint32'), f(2, 'message', 'string'), f(3, 'ratio', () => Ratio)]);

// io.linkerd.proxy.destination
export const GetDestination: MessageDef = msg('GetDestination', [f(1, 'scheme', 'string'), f(2, 'path', 'string'), f(3, 'context_token', 'string')]);
const DnsLikeIdentity: MessageDef = msg('DnsLikeIdentity', [f(1, 'name', 'string')]);
const UriLikeIdentity: MessageDef = msg('UriLikeIdentity', [f(1, 'uri', 'string')]);
const TlsIdentity: MessageDef = msg('TlsIdentity', [
  f(1, 'dns_like_identity', () => DnsLikeIdentity, oneof('strategy')),
  f(3, 'uri_like_identity', () => UriLikeIdentity, oneof('strategy')),
  f(4, 'server_name', () => DnsLikeIdentity),
]);
const OpaqueTransport: MessageDef = msg('OpaqueTransport', [f(1, 'inbound_port', 'uint32')]);
const ProtocolHint: MessageDef = msg('ProtocolHint', [
  f(1, 'h2', () => EMPTY('H2'), oneof('protocol')),
  f(3, 'opaque', () => EMPTY('Opaque'), oneof('protocol')),
  f(2, 'opaque_transport', () => OpaqueTransport),
]);
const AuthorityOverride: MessageDef = msg('AuthorityOverride', [f(1, 'authority_override', 'string')]);
const Http2ClientParams: MessageDef = msg('Http2ClientParams', [
  // Only the presence of these is printed by our tests; their inner fields are skipped.
  f(1, 'flow_control', () => EMPTY('FlowControl')),
  f(2, 'keep_alive', () => EMPTY('KeepAlive')),
  f(3, 'internals', () => EMPTY('Internals')),
]);
export const WeightedAddr: MessageDef = msg('WeightedAddr', [
  f(1, 'addr', () => TcpAddress),
  f(3, 'weight', 'uint32'),
  f(4, 'metric_labels', 'string', { map: true }),
  f(5, 'tls_identity', () => TlsIdentity),
  f(6, 'protocol_hint', () => ProtocolHint),
  f(7, 'authority_override', () => AuthorityOverride),
  f(8, 'http2', () => Http2ClientParams),
  f(9, 'resource_ref', () => Metadata),
]);
const RequestMatchSeq: MessageDef = msg('Seq', [f(1, 'matches', () => RequestMatch, list)]);
const ProfilePathMatch: MessageDef = msg('PathMatch', [f(1, 'regex', 'string')]);
export const RequestMatch: MessageDef = msg('RequestMatch', [
  f(1, 'all', () => RequestMatchSeq, oneof('match')),
  f(2, 'any', () => RequestMatchSeq, oneof('match')),
  f(3, 'not', () => RequestMatch, oneof('match')),
  f(4, 'path', () => ProfilePathMatch, oneof('match')),
  f(5, 'method', () => HttpMethod, oneof('match')),
]);
const HttpStatusRange: MessageDef = msg('HttpStatusRange', [f(1, 'min', 'uint32'), f(2, 'max', 'uint32')]);
const ResponseMatchSeq: MessageDef = msg('Seq', [f(1, 'matches', () => ResponseMatch, list)]);
export const ResponseMatch: MessageDef = msg('ResponseMatch', [
  f(1, 'all', () => ResponseMatchSeq, oneof('match')),
  f(2, 'any', () => ResponseMatchSeq, oneof('match')),
  f(3, 'not', () => ResponseMatch, oneof('match')),
  f(4, 'status', () => HttpStatusRange, oneof('match')),
]);
const ResponseClass: MessageDef = msg('ResponseClass', [f(1, 'condition', () => ResponseMatch), f(2, 'is_failure', 'bool')]);
const ProfileRoute: MessageDef = msg('Route', [
  f(1, 'condition', () => RequestMatch),
  f(2, 'response_classes', () => ResponseClass, list),
  f(3, 'metrics_labels', 'string', { map: true }),
  f(4, 'is_retryable', 'bool'),
  f(5, 'timeout', () => Duration),
]);
const RetryBudget: MessageDef = msg('RetryBudget', [f(1, 'retry_ratio', 'float'), f(2, 'min_retries_per_second', 'uint32'), f(3, 'ttl', () => Duration)]);
const WeightedDst: MessageDef = msg('WeightedDst', [f(1, 'authority', 'string'), f(2, 'weight', 'uint32'), f(3, 'backend_ref', () => Metadata)]);
export const DestinationProfile: MessageDef = msg('DestinationProfile', [
  f(5, 'fully_qualified_name', 'string'),
  f(4, 'opaque_protocol', 'bool'),
  f(1, 'routes', () => ProfileRoute, list),
  f(2, 'retry_budget', () => RetryBudget),
  f(3, 'dst_overrides', () => WeightedDst, list),
  f(6, 'endpoint', () => WeightedAddr),
  f(7, 'parent_ref', () => Metadata),
  f(8, 'profile_ref', () => Metadata),
]);

// io.linkerd.proxy.inbound
export const PortSpec: MessageDef = msg('PortSpec', [f(1, 'workload', 'string'), f(2, 'port', 'uint32')]);
const Identity: MessageDef = msg('Identity', [f(1, 'name', 'string')]);
const IdentitySuffix: MessageDef = msg('IdentitySuffix', [f(1, 'parts', 'string', list)]);
const PermitClientIdentities: MessageDef = msg('PermitClientIdentities', [
  f(1, 'identities', () => Identity, list),
  f(2, 'suffixes', () => IdentitySuffix, list),
]);
const PermitUnauthenticated: MessageDef = EMPTY('PermitUnauthenticated');
const PermitMeshTLS: MessageDef = msg('PermitMeshTLS', [
  f(1, 'unauthenticated', () => PermitUnauthenticated, oneof('clients')),
  f(2, 'identities', () => PermitClientIdentities, oneof('clients')),
]);
const Authn: MessageDef = msg('Authn', [
  f(1, 'unauthenticated', () => PermitUnauthenticated, oneof('permit')),
  f(2, 'meshTLS', () => PermitMeshTLS, oneof('permit')),
]);
const Network: MessageDef = msg('Network', [f(1, 'net', () => IPNetwork), f(2, 'except', () => IPNetwork, list)]);
export const Authz: MessageDef = msg('Authz', [
  f(1, 'networks', () => Network, list),
  f(2, 'authentication', () => Authn),
  f(3, 'labels', 'string', { map: true }),
  f(4, 'metadata', () => Metadata),
]);
const InboundHttpFilter: MessageDef = msg('Filter', [
  f(1, 'failure_injector', () => HttpFailureInjector, oneof('kind')),
  f(2, 'request_header_modifier', () => RequestHeaderModifier, oneof('kind')),
  f(3, 'redirect', () => RequestRedirect, oneof('kind')),
]);
const InboundHttpRule: MessageDef = msg('Rule', [f(1, 'matches', () => HttpRouteMatch, list), f(2, 'filters', () => InboundHttpFilter, list)]);
export const InboundHttpRoute: MessageDef = msg('HttpRoute', [
  f(1, 'metadata', () => Metadata),
  f(2, 'hosts', () => HostMatch, list),
  f(3, 'authorizations', () => Authz, list),
  f(4, 'rules', () => InboundHttpRule, list),
]);
const InboundGrpcFilter: MessageDef = msg('Filter', [
  f(1, 'failure_injector', () => GrpcFailureInjector, oneof('kind')),
  f(2, 'request_header_modifier', () => RequestHeaderModifier, oneof('kind')),
]);
const InboundGrpcRule: MessageDef = msg('Rule', [f(1, 'matches', () => GrpcRouteMatch, list), f(2, 'filters', () => InboundGrpcFilter, list)]);
const InboundGrpcRoute: MessageDef = msg('GrpcRoute', [
  f(1, 'metadata', () => Metadata),
  f(2, 'hosts', () => HostMatch, list),
  f(3, 'authorizations', () => Authz, list),
  f(4, 'rules', () => InboundGrpcRule, list),
]);
const Limit: MessageDef = msg('Limit', [f(1, 'requestsPerSecond', 'uint32')]);
const ClientIdentities: MessageDef = msg('ClientIdentities', [f(1, 'identities', () => Identity, list)]);
const Override: MessageDef = msg('Override', [f(1, 'limit', () => Limit), f(2, 'clients', () => ClientIdentities)]);
const HttpLocalRateLimit: MessageDef = msg('HttpLocalRateLimit', [
  f(1, 'metadata', () => Metadata),
  f(2, 'total', () => Limit),
  f(3, 'identity', () => Limit),
  f(4, 'overrides', () => Override, list),
]);
const InboundDetect: MessageDef = msg('Detect', [
  f(1, 'timeout', () => Duration),
  f(3, 'http_routes', () => InboundHttpRoute, list),
  f(4, 'http_local_rate_limit', () => HttpLocalRateLimit),
]);
const InboundHttp = (name: string): MessageDef => msg(name, [f(2, 'routes', () => InboundHttpRoute, list), f(3, 'local_rate_limit', () => HttpLocalRateLimit)]);
const InboundGrpc: MessageDef = msg('Grpc', [f(2, 'routes', () => InboundGrpcRoute, list)]);
const InboundProxyProtocol: MessageDef = msg('ProxyProtocol', [
  f(1, 'detect', () => InboundDetect, oneof('kind')),
  f(2, 'opaque', () => EMPTY('Opaque'), oneof('kind')),
  f(3, 'tls', () => EMPTY('Tls'), oneof('kind')),
  f(4, 'http1', () => InboundHttp('Http1'), oneof('kind')),
  f(5, 'http2', () => InboundHttp('Http2'), oneof('kind')),
  f(6, 'grpc', () => InboundGrpc, oneof('kind')),
]);
export const Server: MessageDef = msg('Server', [
  f(1, 'protocol', () => InboundProxyProtocol),
  f(2, 'server_ips', () => IPAddress, list),
  f(3, 'authorizations', () => Authz, list),
  f(4, 'labels', 'string', { map: true }),
]);

// io.linkerd.proxy.outbound
export const TrafficSpec: MessageDef = msg('TrafficSpec', [
  f(1, 'source_workload', 'string'),
  f(2, 'addr', () => TcpAddress, oneof('target')),
  f(3, 'authority', 'string', oneof('target')),
]);
const Queue: MessageDef = msg('Queue', [f(1, 'capacity', 'uint32'), f(2, 'failfast_timeout', () => Duration)]);
const DestinationGet: MessageDef = msg('DestinationGet', [f(1, 'path', 'string')]);
const EndpointDiscovery: MessageDef = msg('EndpointDiscovery', [f(1, 'dst', () => DestinationGet, oneof('kind'))]);
const PeakEwma: MessageDef = msg('PeakEwma', [f(1, 'default_rtt', () => Duration), f(2, 'decay', () => Duration)]);
const BalanceP2c: MessageDef = msg('BalanceP2c', [f(1, 'discovery', () => EndpointDiscovery), f(2, 'peak_ewma', () => PeakEwma, oneof('load'))]);
export const Backend: MessageDef = msg('Backend', [
  f(1, 'metadata', () => Metadata),
  f(2, 'forward', () => WeightedAddr, oneof('kind')),
  f(3, 'balancer', () => BalanceP2c, oneof('kind')),
  f(4, 'queue', () => Queue),
]);
const ExponentialBackoff: MessageDef = msg('ExponentialBackoff', [
  f(1, 'min_backoff', () => Duration),
  f(2, 'max_backoff', () => Duration),
  f(3, 'jitter_ratio', 'float'),
]);
const ConsecutiveFailures: MessageDef = msg('ConsecutiveFailures', [f(1, 'max_failures', 'uint32'), f(2, 'backoff', () => ExponentialBackoff)]);
const FailureAccrual: MessageDef = msg('FailureAccrual', [f(1, 'consecutive_failures', () => ConsecutiveFailures, oneof('kind'))]);

/** The Distribution / RouteBackend / WeightedRouteBackend trio each outbound route kind declares. */
function distribution(routeBackend: MessageDef): MessageDef {
  const weighted = msg('WeightedRouteBackend', [f(1, 'backend', () => routeBackend), f(2, 'weight', 'uint32')]);
  return msg('Distribution', [
    f(1, 'empty', () => EMPTY('Empty'), oneof('kind')),
    f(2, 'first_available', () => msg('FirstAvailable', [f(1, 'backends', () => routeBackend, list)]), oneof('kind')),
    f(3, 'random_available', () => msg('RandomAvailable', [f(1, 'backends', () => weighted, list)]), oneof('kind')),
  ]);
}

const OutboundHttpFilter: MessageDef = msg('Filter', [
  f(1, 'failure_injector', () => HttpFailureInjector, oneof('kind')),
  f(2, 'request_header_modifier', () => RequestHeaderModifier, oneof('kind')),
  f(3, 'redirect', () => RequestRedirect, oneof('kind')),
  f(4, 'response_header_modifier', () => ResponseHeaderModifier, oneof('kind')),
]);
const OutboundHttpRouteBackend: MessageDef = msg('RouteBackend', [
  f(1, 'backend', () => Backend),
  f(3, 'filters', () => OutboundHttpFilter, list),
  f(4, 'requestTimeout', () => Duration),
]);
const OutboundHttpDistribution = distribution(OutboundHttpRouteBackend);
const OutboundHttpRule: MessageDef = msg('Rule', [
  f(1, 'matches', () => HttpRouteMatch, list),
  f(2, 'filters', () => OutboundHttpFilter, list),
  f(3, 'backends', () => OutboundHttpDistribution),
  f(4, 'requestTimeout', () => Duration),
]);
export const OutboundHttpRoute: MessageDef = msg('HttpRoute', [
  f(1, 'metadata', () => Metadata),
  f(2, 'hosts', () => HostMatch, list),
  f(3, 'rules', () => OutboundHttpRule, list),
]);
const OutboundGrpcFilter: MessageDef = msg('Filter', [
  f(1, 'failure_injector', () => GrpcFailureInjector, oneof('kind')),
  f(2, 'request_header_modifier', () => RequestHeaderModifier, oneof('kind')),
]);
const OutboundGrpcRouteBackend: MessageDef = msg('RouteBackend', [
  f(1, 'backend', () => Backend),
  f(3, 'filters', () => OutboundGrpcFilter, list),
  f(4, 'requestTimeout', () => Duration),
]);
const OutboundGrpcDistribution = distribution(OutboundGrpcRouteBackend);
const OutboundGrpcRule: MessageDef = msg('Rule', [
  f(1, 'matches', () => GrpcRouteMatch, list),
  f(2, 'filters', () => OutboundGrpcFilter, list),
  f(3, 'backends', () => OutboundGrpcDistribution),
  f(4, 'requestTimeout', () => Duration),
]);
const OutboundGrpcRoute: MessageDef = msg('GrpcRoute', [
  f(1, 'metadata', () => Metadata),
  f(2, 'hosts', () => HostMatch, list),
  f(3, 'rules', () => OutboundGrpcRule, list),
]);
const OpaqueRouteBackend: MessageDef = msg('RouteBackend', [f(1, 'backend', () => Backend)]);
const OpaqueDistribution = distribution(OpaqueRouteBackend);
const OpaqueRule: MessageDef = msg('Rule', [f(1, 'backends', () => OpaqueDistribution)]);
const OpaqueRoute: MessageDef = msg('OpaqueRoute', [f(1, 'metadata', () => Metadata), f(3, 'rules', () => OpaqueRule, list)]);
const OutboundOpaque: MessageDef = msg('Opaque', [f(1, 'routes', () => OpaqueRoute, list)]);
const OutboundHttp = (name: string): MessageDef => msg(name, [f(1, 'routes', () => OutboundHttpRoute, list), f(2, 'failure_accrual', () => FailureAccrual)]);
const OutboundGrpc: MessageDef = msg('Grpc', [f(1, 'routes', () => OutboundGrpcRoute, list), f(2, 'failure_accrual', () => FailureAccrual)]);
const OutboundHttp1 = OutboundHttp('Http1');
const OutboundHttp2 = OutboundHttp('Http2');
const OutboundDetect: MessageDef = msg('Detect', [
  f(1, 'timeout', () => Duration),
  f(2, 'opaque', () => OutboundOpaque),
  f(3, 'http1', () => OutboundHttp1),
  f(4, 'http2', () => OutboundHttp2),
]);
const OutboundProxyProtocol: MessageDef = msg('ProxyProtocol', [
  f(1, 'detect', () => OutboundDetect, oneof('kind')),
  f(2, 'opaque', () => OutboundOpaque, oneof('kind')),
  f(3, 'http1', () => OutboundHttp1, oneof('kind')),
  f(4, 'http2', () => OutboundHttp2, oneof('kind')),
  f(5, 'grpc', () => OutboundGrpc, oneof('kind')),
  // TLS routes: the message is known by number only here; its fields are not decoded.
  f(6, 'tls', () => EMPTY('Tls'), oneof('kind')),
]);
export const OutboundPolicy: MessageDef = msg('OutboundPolicy', [f(1, 'protocol', () => OutboundProxyProtocol), f(2, 'metadata', () => Metadata)]);

export const INBOUND_GET_PORT = '/io.linkerd.proxy.inbound.InboundServerPolicies/GetPort';
export const OUTBOUND_GET = '/io.linkerd.proxy.outbound.OutboundPolicies/Get';
export const DESTINATION_GET_PROFILE = '/io.linkerd.proxy.destination.Destination/GetProfile';
