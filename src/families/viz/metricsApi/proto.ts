import { create, createFileRegistry, fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema, type FieldDescriptorProto } from '@bufbuild/protobuf/wkt';

/*
 * The messages of linkerd's metrics API (package linkerd2.viz, service Api) that the viz commands
 * use, described as data from the API's field names and numbers and encoded by @bufbuild/protobuf's
 * reflection. Fields no command reads (Pod's durations, Row's errors_by_pod and ts_stats) are not
 * declared: they stay unknown fields and are skipped.
 */

export const METRICS_API_SERVICE = '/linkerd2.viz.Api';

const PACKAGE = 'linkerd2.viz';
type Kind = 'string' | 'bool' | 'uint64' | 'enum' | `.${string}`;
type FieldSpec = readonly [name: string, number: number, kind: Kind, opts?: { repeated?: boolean; oneof?: number }];
interface MessageSpec {
  readonly fields: readonly FieldSpec[];
  readonly oneofs?: readonly string[];
  readonly nested?: Readonly<Record<string, MessageSpec>>;
}

const TYPE = {
  string: FieldDescriptorProto_Type.STRING,
  bool: FieldDescriptorProto_Type.BOOL,
  uint64: FieldDescriptorProto_Type.UINT64,
  enum: FieldDescriptorProto_Type.ENUM,
  message: FieldDescriptorProto_Type.MESSAGE,
} as const;

function field([name, number, kind, opts]: FieldSpec): Partial<FieldDescriptorProto> {
  const message = kind.startsWith('.');
  return {
    name,
    number,
    label: opts?.repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
    type: message ? TYPE.message : TYPE[kind as keyof typeof TYPE],
    ...(message ? { typeName: `.${PACKAGE}${kind}` } : {}),
    ...(kind === 'enum' ? { typeName: `.${PACKAGE}.CheckStatus` } : {}),
    ...(opts?.oneof !== undefined ? { oneofIndex: opts.oneof } : {}),
  };
}

function message(name: string, spec: MessageSpec): object {
  return {
    name,
    field: spec.fields.map(field),
    oneofDecl: (spec.oneofs ?? []).map((n) => ({ name: n })),
    nestedType: Object.entries(spec.nested ?? {}).map(([n, s]) => message(n, s)),
  };
}

const ok = (fields: readonly FieldSpec[]): MessageSpec => ({ fields });

const MESSAGES: Record<string, MessageSpec> = {
  Empty: { fields: [] },
  CheckResult: {
    fields: [
      ['SubsystemName', 1, 'string'],
      ['CheckDescription', 2, 'string'],
      ['Status', 3, 'enum'],
      ['FriendlyMessageToUser', 4, 'string'],
    ],
  },
  SelfCheckRequest: { fields: [] },
  SelfCheckResponse: { fields: [['results', 1, '.CheckResult', { repeated: true }]] },
  ListPodsRequest: { fields: [['selector', 2, '.ResourceSelection']] },
  ListPodsResponse: { fields: [['pods', 1, '.Pod', { repeated: true }]] },
  Pod: {
    fields: [
      ['name', 1, 'string'],
      ['podIP', 2, 'string'],
      ['deployment', 3, 'string', { oneof: 0 }],
      ['status', 4, 'string'],
      ['added', 5, 'bool'],
      ['controllerNamespace', 7, 'string'],
      ['controlPlane', 8, 'bool'],
      ['replica_set', 10, 'string', { oneof: 0 }],
      ['replication_controller', 11, 'string', { oneof: 0 }],
      ['stateful_set', 12, 'string', { oneof: 0 }],
      ['daemon_set', 13, 'string', { oneof: 0 }],
      ['job', 14, 'string', { oneof: 0 }],
      ['proxyReady', 15, 'bool'],
      ['proxyVersion', 16, 'string'],
      ['resourceVersion', 17, 'string'],
    ],
    oneofs: ['owner'],
  },
  Resource: {
    fields: [
      ['namespace', 1, 'string'],
      ['type', 2, 'string'],
      ['name', 3, 'string'],
    ],
  },
  ResourceSelection: {
    fields: [
      ['resource', 1, '.Resource'],
      ['label_selector', 2, 'string'],
    ],
  },
  ResourceError: {
    fields: [
      ['resource', 1, '.Resource'],
      ['error', 2, 'string'],
    ],
  },
  StatSummaryRequest: {
    fields: [
      ['selector', 1, '.ResourceSelection'],
      ['time_window', 2, 'string'],
      ['none', 3, '.Empty', { oneof: 0 }],
      ['to_resource', 4, '.Resource', { oneof: 0 }],
      ['from_resource', 5, '.Resource', { oneof: 0 }],
      ['skip_stats', 6, 'bool'],
      ['tcp_stats', 7, 'bool'],
    ],
    oneofs: ['outbound'],
  },
  StatSummaryResponse: {
    fields: [
      ['ok', 1, '.StatSummaryResponse.Ok', { oneof: 0 }],
      ['error', 2, '.ResourceError', { oneof: 0 }],
    ],
    oneofs: ['response'],
    nested: { Ok: ok([['stat_tables', 1, '.StatTable', { repeated: true }]]) },
  },
  AuthzRequest: {
    fields: [
      ['resource', 1, '.Resource'],
      ['time_window', 2, 'string'],
    ],
  },
  AuthzResponse: {
    fields: [
      ['ok', 1, '.AuthzResponse.Ok', { oneof: 0 }],
      ['error', 2, '.ResourceError', { oneof: 0 }],
    ],
    oneofs: ['response'],
    nested: { Ok: ok([['stat_table', 1, '.StatTable']]) },
  },
  BasicStats: {
    fields: [
      ['success_count', 1, 'uint64'],
      ['failure_count', 2, 'uint64'],
      ['latency_ms_p50', 3, 'uint64'],
      ['latency_ms_p95', 4, 'uint64'],
      ['latency_ms_p99', 5, 'uint64'],
      ['actual_success_count', 6, 'uint64'],
      ['actual_failure_count', 7, 'uint64'],
    ],
  },
  TcpStats: {
    fields: [
      ['open_connections', 1, 'uint64'],
      ['read_bytes_total', 2, 'uint64'],
      ['write_bytes_total', 3, 'uint64'],
    ],
  },
  ServerStats: {
    fields: [
      ['allowed_count', 1, 'uint64'],
      ['denied_count', 2, 'uint64'],
      ['srv', 3, '.Resource'],
      ['route', 4, '.Resource'],
      ['authz', 5, '.Resource'],
    ],
  },
  StatTable: {
    fields: [['pod_group', 1, '.StatTable.PodGroup', { oneof: 0 }]],
    oneofs: ['table'],
    nested: {
      PodGroup: {
        fields: [['rows', 1, '.StatTable.PodGroup.Row', { repeated: true }]],
        nested: {
          Row: ok([
            ['resource', 1, '.Resource'],
            ['time_window', 2, 'string'],
            ['meshed_pod_count', 3, 'uint64'],
            ['running_pod_count', 4, 'uint64'],
            ['stats', 5, '.BasicStats'],
            ['failed_pod_count', 6, 'uint64'],
            ['tcp_stats', 8, '.TcpStats'],
            ['status', 9, 'string'],
            ['srv_stats', 11, '.ServerStats'],
          ]),
        },
      },
    },
  },
  EdgesRequest: { fields: [['selector', 1, '.ResourceSelection']] },
  EdgesResponse: {
    fields: [
      ['ok', 1, '.EdgesResponse.Ok', { oneof: 0 }],
      ['error', 2, '.ResourceError', { oneof: 0 }],
    ],
    oneofs: ['response'],
    nested: { Ok: ok([['edges', 1, '.Edge', { repeated: true }]]) },
  },
  Edge: {
    fields: [
      ['src', 1, '.Resource'],
      ['dst', 2, '.Resource'],
      ['client_id', 3, 'string'],
      ['server_id', 4, 'string'],
      ['no_identity_msg', 5, 'string'],
    ],
  },
  TopRoutesRequest: {
    fields: [
      ['selector', 1, '.ResourceSelection'],
      ['time_window', 2, 'string'],
      ['none', 3, '.Empty', { oneof: 0 }],
      ['to_resource', 7, '.Resource', { oneof: 0 }],
    ],
    oneofs: ['outbound'],
  },
  TopRoutesResponse: {
    fields: [
      ['error', 2, '.ResourceError', { oneof: 0 }],
      ['ok', 3, '.TopRoutesResponse.Ok', { oneof: 0 }],
    ],
    oneofs: ['response'],
    nested: { Ok: ok([['routes', 1, '.RouteTable', { repeated: true }]]) },
  },
  RouteTable: {
    fields: [
      ['rows', 1, '.RouteTable.Row', { repeated: true }],
      ['resource', 2, 'string'],
    ],
    nested: {
      Row: ok([
        ['route', 1, 'string'],
        ['time_window', 2, 'string'],
        ['stats', 5, '.BasicStats'],
        ['authority', 6, 'string'],
      ]),
    },
  },
};

const registry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: 'linkerd2/viz.proto',
    package: PACKAGE,
    syntax: 'proto3',
    enumType: [{ name: 'CheckStatus', value: ['OK', 'FAIL', 'ERROR'].map((name, number) => ({ name, number })) }],
    messageType: Object.entries(MESSAGES).map(([n, s]) => message(n, s)),
  }),
  () => undefined,
);

function schema(name: string): DescMessage {
  const desc = registry.getMessage(`${PACKAGE}.${name}`);
  if (!desc) throw new Error(`unknown message ${name}`);
  return desc;
}

/** The wire codec of one message: plain objects in (snake_case keys as declared), plain objects out. */
export interface Codec<T> {
  encode(value: T): Buffer;
  decode(bytes: Buffer): T;
}

export function codec<T>(name: string): Codec<T> {
  const desc = schema(name);
  return {
    encode: (value) => Buffer.from(toBinary(desc, create(desc, value as never))),
    decode: (bytes) => fromBinary(desc, bytes) as unknown as T,
  };
}

// Shapes of the messages as @bufbuild/protobuf reads them (oneofs as { case, value }).

export interface Resource {
  namespace: string;
  type: string;
  name: string;
}
export interface ResourceSelection {
  resource?: Resource;
  labelSelector?: string;
}
export type Oneof<C extends string, V> = { case: C; value: V } | { case: undefined; value?: undefined };

export interface BasicStats {
  successCount: bigint;
  failureCount: bigint;
  latencyMsP50: bigint;
  latencyMsP95: bigint;
  latencyMsP99: bigint;
  actualSuccessCount: bigint;
  actualFailureCount: bigint;
}
export interface TcpStats {
  openConnections: bigint;
  readBytesTotal: bigint;
  writeBytesTotal: bigint;
}
export interface ServerStats {
  allowedCount: bigint;
  deniedCount: bigint;
  srv?: Resource;
  route?: Resource;
  authz?: Resource;
}
export interface StatRow {
  resource?: Resource;
  timeWindow: string;
  status: string;
  meshedPodCount: bigint;
  runningPodCount: bigint;
  failedPodCount: bigint;
  stats?: BasicStats;
  tcpStats?: TcpStats;
  srvStats?: ServerStats;
}
export interface StatTable {
  table: Oneof<'podGroup', { rows: StatRow[] }>;
}
export interface ResourceError {
  resource?: Resource;
  error: string;
}

export interface StatSummaryRequest {
  selector?: ResourceSelection;
  timeWindow: string;
  outbound: Oneof<'none', object> | Oneof<'toResource' | 'fromResource', Resource>;
  skipStats?: boolean;
  tcpStats: boolean;
}
export interface StatSummaryResponse {
  response: Oneof<'ok', { statTables: StatTable[] }> | Oneof<'error', ResourceError>;
}
export interface AuthzRequest {
  resource?: Resource;
  timeWindow: string;
}
export interface AuthzResponse {
  response: Oneof<'ok', { statTable?: StatTable }> | Oneof<'error', ResourceError>;
}
export interface Edge {
  src?: Resource;
  dst?: Resource;
  clientId: string;
  serverId: string;
  noIdentityMsg: string;
}
export interface EdgesRequest {
  selector?: ResourceSelection;
}
export interface EdgesResponse {
  response: Oneof<'ok', { edges: Edge[] }> | Oneof<'error', ResourceError>;
}
export interface RouteRow {
  route: string;
  timeWindow: string;
  authority: string;
  stats?: BasicStats;
}
export interface TopRoutesRequest {
  selector?: ResourceSelection;
  timeWindow: string;
  outbound: Oneof<'none', object> | Oneof<'toResource', Resource>;
}
export interface TopRoutesResponse {
  response: Oneof<'ok', { routes: Array<{ resource: string; rows: RouteRow[] }> }> | Oneof<'error', ResourceError>;
}
export const CHECK_STATUS_OK = 0;
export interface CheckResult {
  SubsystemName: string;
  CheckDescription: string;
  Status: number;
  FriendlyMessageToUser: string;
}
export interface SelfCheckResponse {
  results: CheckResult[];
}
export interface ListPodsRequest {
  selector?: ResourceSelection;
}
export interface MetricsPod {
  name: string;
  status: string;
  added: boolean;
  controllerNamespace: string;
  owner: Oneof<'deployment' | 'replicaSet' | 'replicationController' | 'statefulSet' | 'daemonSet' | 'job', string>;
}
export interface ListPodsResponse {
  pods: MetricsPod[];
}

/** The methods: path, request and response codecs. */
export const METHODS = {
  StatSummary: { path: `${METRICS_API_SERVICE}/StatSummary`, request: 'StatSummaryRequest', response: 'StatSummaryResponse' },
  Edges: { path: `${METRICS_API_SERVICE}/Edges`, request: 'EdgesRequest', response: 'EdgesResponse' },
  TopRoutes: { path: `${METRICS_API_SERVICE}/TopRoutes`, request: 'TopRoutesRequest', response: 'TopRoutesResponse' },
  ListPods: { path: `${METRICS_API_SERVICE}/ListPods`, request: 'ListPodsRequest', response: 'ListPodsResponse' },
  SelfCheck: { path: `${METRICS_API_SERVICE}/SelfCheck`, request: 'SelfCheckRequest', response: 'SelfCheckResponse' },
  Authz: { path: `${METRICS_API_SERVICE}/Authz`, request: 'AuthzRequest', response: 'AuthzResponse' },
} as const;

export interface MethodTypes {
  StatSummary: [StatSummaryRequest, StatSummaryResponse];
  Edges: [EdgesRequest, EdgesResponse];
  TopRoutes: [TopRoutesRequest, TopRoutesResponse];
  ListPods: [ListPodsRequest, ListPodsResponse];
  SelfCheck: [object, SelfCheckResponse];
  Authz: [AuthzRequest, AuthzResponse];
}
export type MethodName = keyof MethodTypes;
