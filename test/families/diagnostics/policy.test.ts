import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPolicy } from '../../../src/families/diagnostics/policy.js';
import * as m from '../../../src/families/diagnostics/proto/messages.js';
import { decode, encode, type GoJson, type MessageDef } from '../../../src/families/diagnostics/proto/schema.js';
import { firstOfStream } from '../../../src/families/diagnostics/rpc.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');

// What the policy controller answers for a meshed pod's port under the default policy: detection
// with the default and probe routes, the all-unauthenticated grant from everywhere.
const ALL_V4 = { ip: { Ip: { Ipv4: 0 } } };
const ALL_V6 = { ip: { Ip: { Ipv6: {} } } };
const defaultMeta = (name: string) => ({ Kind: { Default: name } });
const INBOUND: GoJson = {
  protocol: {
    Kind: {
      Detect: {
        timeout: { seconds: 10n },
        http_routes: [
          { metadata: defaultMeta('default'), rules: [{ matches: [{ path: { Kind: { Prefix: '/' } } }] }] },
          {
            metadata: defaultMeta('probe'),
            authorizations: [
              {
                networks: [{ net: ALL_V4 }, { net: ALL_V6 }],
                authentication: { Permit: { Unauthenticated: {} } },
                labels: { group: '', kind: 'default', name: 'probe' },
                metadata: defaultMeta('probe'),
              },
            ],
            rules: [
              { matches: [{ path: { Kind: { Exact: '/live' } }, method: { Type: { Registered: 0 } } }] },
              { matches: [{ path: { Kind: { Exact: '/ready' } }, method: { Type: { Registered: 0 } } }] },
            ],
          },
        ],
      },
    },
  },
  authorizations: [
    {
      networks: [{ net: ALL_V4 }, { net: { ip: { Ip: { Ipv6: { first: 0xfd00000000000000n } } }, prefix_len: 8 } }],
      authentication: {
        Permit: { MeshTLS: { Clients: { Identities: { suffixes: [{ parts: ['emojivoto', 'serviceaccount', 'identity', 'linkerd', 'cluster', 'local'] }] } } } },
      },
      labels: { group: 'policy.linkerd.io', kind: 'authorizationpolicy', name: 'web-to-emoji' },
      metadata: { Kind: { Resource: { group: 'policy.linkerd.io', kind: 'authorizationpolicy', name: 'web-to-emoji' } } },
    },
  ],
  labels: { group: 'policy.linkerd.io', kind: 'server', name: 'emoji-grpc' },
};

// The outbound default of a Service port: detection, one HTTP route to the Service's balancer.
const BACKEND = {
  metadata: { Kind: { Resource: { group: 'core', kind: 'Service', name: 'emoji-svc', namespace: 'emojivoto', port: 8080 } } },
  Kind: {
    Balancer: {
      discovery: { Kind: { Dst: { path: 'emoji-svc.emojivoto.svc.cluster.local:8080' } } },
      Load: { PeakEwma: { default_rtt: { nanos: 30_000_000 }, decay: { seconds: 10n } } },
    },
  },
  queue: { capacity: 100, failfast_timeout: { seconds: 3n } },
};
const HTTP = {
  routes: [
    {
      metadata: defaultMeta('http'),
      rules: [
        {
          matches: [{ path: { Kind: { Prefix: '/' } } }],
          backends: { Kind: { FirstAvailable: { backends: [{ backend: BACKEND }] } } },
        },
      ],
    },
  ],
};
const OUTBOUND: GoJson = {
  protocol: { Kind: { Detect: { timeout: { seconds: 10n }, opaque: { routes: [] }, http1: HTTP, http2: HTTP } } },
  metadata: { Kind: { Resource: { group: 'core', kind: 'Service', name: 'emoji-svc', namespace: 'emojivoto', port: 8080 } } },
};

const PROFILE: GoJson = {
  fully_qualified_name: 'books.booksapp.svc.cluster.local',
  routes: [
    {
      condition: { Match: { All: { matches: [{ Match: { Path: { regex: '/books/\\d+' } } }, { Match: { Method: { Type: { Registered: 1 } } } }] } } },
      response_classes: [{ condition: { Match: { Status: { min: 500, max: 599 } } }, is_failure: true }],
      metrics_labels: { route: 'POST /books/{id}' },
      is_retryable: true,
      timeout: { seconds: 25n },
    },
  ],
  retry_budget: { retry_ratio: 0.2, min_retries_per_second: 10, ttl: { seconds: 10n } },
  dst_overrides: [{ authority: 'books.booksapp.svc.cluster.local.:8080', weight: 10000 }],
};

/** Answered as bytes that are no Server (a length running past the end). */
const GARBAGE: GoJson = { garbage: true };

const asked: Array<{ method: string; req: GoJson }> = [];

function unaryHandler(method: string, answer: (req: GoJson) => GoJson | grpc.ServiceError | 'hang') {
  return (call: grpc.ServerUnaryCall<GoJson, GoJson>, cb: grpc.sendUnaryData<GoJson>) => {
    asked.push({ method, req: call.request });
    const a = answer(call.request);
    if (a === 'hang') return;
    if (a instanceof Error) cb(a);
    else cb(null, a);
  };
}

const status = (code: grpc.status, details: string): grpc.ServiceError => Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

function inboundAnswer(req: GoJson): GoJson | grpc.ServiceError | 'hang' {
  if (!req.port || Number(req.port) > 65535) return status(grpc.status.INVALID_ARGUMENT, `Invalid port: ${Number(req.port ?? 0)}`);
  if (req.workload === 'emojivoto:slow') return 'hang';
  if (req.workload === 'emojivoto:garbage') return GARBAGE;
  if (req.workload !== 'emojivoto:emoji-6d66d87995-bvrnn') return status(grpc.status.NOT_FOUND, 'unknown server');
  return INBOUND;
}

function outboundAnswer(req: GoJson): GoJson | grpc.ServiceError {
  const authority = (req.Target as { Authority?: string } | undefined)?.Authority ?? '';
  if (!/^[^.]+\.[^.]+\.svc:\d+$/.test(authority)) return status(grpc.status.INVALID_ARGUMENT, 'invalid authority');
  return OUTBOUND;
}

const register = (server: grpc.Server, method: string, req: MessageDef, res: MessageDef, handler: grpc.UntypedHandleCall, type: 'unary' | 'serverStream') =>
  server.register(
    method,
    handler,
    (x: GoJson) => (x === GARBAGE ? Buffer.from([0x0a, 0x7f, 0x01]) : encode(res, x)),
    (b: Buffer) => decode(req, b),
    type,
  );

describe('linkerd diagnostics policy / profile (loopback gRPC controllers behind a port-forward)', () => {
  let server: grpc.Server;
  let address: string;
  let api: ApiServer;
  let kubeconfig: string;
  beforeAll(async () => {
    server = new grpc.Server();
    register(server, m.INBOUND_GET_PORT, m.PortSpec, m.Server, unaryHandler('inbound', inboundAnswer), 'unary');
    register(server, m.OUTBOUND_GET, m.TrafficSpec, m.OutboundPolicy, unaryHandler('outbound', outboundAnswer), 'unary');
    register(
      server,
      m.DESTINATION_GET_PROFILE,
      m.GetDestination,
      m.DestinationProfile,
      (call: grpc.ServerWritableStream<GoJson, GoJson>) => {
        asked.push({ method: 'profile', req: call.request });
        const p = typeof call.request.path === 'string' ? call.request.path : '';
        if (p === 'books.booksapp.svc.cluster.local:8080') {
          call.write(PROFILE);
          // A real controller keeps the stream open for updates; the CLI reads one message.
        } else if (p === 'empty.booksapp.svc.cluster.local:8080') call.end();
        else call.emit('error', status(grpc.status.INVALID_ARGUMENT, `Invalid authority: ${p}`));
      },
      'serverStream',
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    address = `127.0.0.1:${port}`;
    const pod = (name: string, rs: string, phase: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'linkerd', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: 'r' }] },
      spec: { containers: [{ name: 'destination', image: 'x' }] },
      status: { phase },
    });
    api = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'linkerd-destination-5d8',
            namespace: 'linkerd',
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'linkerd-destination', uid: 'd' }],
          },
          spec: { selector: { matchLabels: { a: 'b' } } },
        },
        pod('linkerd-destination-5d8-old', 'linkerd-destination-5d8', 'Pending'),
        pod('linkerd-destination-5d8-x', 'linkerd-destination-5d8', 'Running'),
        // A pod whose policy container is not listening.
        pod('linkerd-destination-5d8-zz-down', 'linkerd-destination-5d8', 'Running'),
      ],
      portForward: (_ns, podName, p) => (podName !== 'linkerd-destination-5d8-zz-down' && (p === 8090 || p === 8086) ? { host: '127.0.0.1', port } : undefined),
    });
    kubeconfig = api.kubeconfigPath;
  });
  afterAll(async () => {
    await api.stop();
    server.forceShutdown();
  });

  const policyCli = (...args: string[]) => runCli(['--kubeconfig', kubeconfig, 'diagnostics', 'policy', ...args]);

  it('prints a pod port inbound policy as sorted YAML (the default output), asking for <ns>:<pod>', async () => {
    asked.length = 0;
    const r = await policyCli('-n', 'emojivoto', 'po/emoji-6d66d87995-bvrnn', '8080');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(path.join(GOLDEN, 'policy_inbound.yaml'), r.stdout);
    expect(asked).toEqual([{ method: 'inbound', req: { workload: 'emojivoto:emoji-6d66d87995-bvrnn', port: 8080 } }]);
  });

  it('prints -o json as Go indented JSON in declaration order, without a final newline', async () => {
    const r = await policyCli('-n', 'emojivoto', 'pod/emoji-6d66d87995-bvrnn', '8080', '-o', 'json');
    expect(r.code).toBe(0);
    expectGoldenFile(path.join(GOLDEN, 'policy_inbound.json'), r.stdout);
    expect(r.stdout.endsWith('}')).toBe(true);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['protocol', 'authorizations', 'labels']);
  });

  it('asks the outbound API for a Service port with the token as source workload', async () => {
    asked.length = 0;
    const r = await policyCli('-n', 'emojivoto', 'svc/emoji-svc', '8080', '--token', 'emojivoto:web');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(path.join(GOLDEN, 'policy_outbound.yaml'), r.stdout);
    expect(asked).toEqual([{ method: 'outbound', req: { source_workload: 'emojivoto:web', Target: { Authority: 'emoji-svc.emojivoto.svc:8080' } } }]);
  });

  it('defaults to namespace "default" and token "default:diagnostics", and honours --api-addr', async () => {
    asked.length = 0;
    const r = await runCli(['--kubeconfig', kubeconfig, '--api-addr', address, 'dg', 'policy', 'services/web', '80', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(asked).toEqual([{ method: 'outbound', req: { source_workload: 'default:diagnostics', Target: { Authority: 'web.default.svc:80' } } }]);
  });

  it('returns the controller errors as grpc-go prints them', async () => {
    const unknown = await policyCli('-n', 'emojivoto', 'po/nope', '8080');
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([1, '', 'Error: rpc error: code = NotFound desc = unknown server\n']);
    const port0 = await policyCli('-n', 'emojivoto', 'po/emoji-6d66d87995-bvrnn', '0');
    expect(port0.stderr).toBe('Error: rpc error: code = InvalidArgument desc = Invalid port: 0\n');
  });

  it('refuses bad operands with the real messages, before printing anything', async () => {
    const cases: Array<[string[], string]> = [
      [['emoji', '8080'], 'resource type and name are required'],
      [['po/a/b', '8080'], 'invalid resource string: po/a/b'],
      [['deploy/web', '8080'], 'invalid resource type deploy/web; must be one of Pod or Service'],
      [['widget/web', '8080'], 'cannot find Kubernetes canonical name from friendly name [widget]'],
      [['po/web', 'http'], 'strconv.ParseUint: parsing "http": invalid syntax'],
      [['po/web', '4294967296'], 'strconv.ParseUint: parsing "4294967296": value out of range'],
    ];
    for (const [args, message] of cases) {
      const r = await policyCli(...args);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: ${message}\n`]);
    }
  });

  it('checks the output format after the call, as the real command', async () => {
    asked.length = 0;
    const r = await policyCli('-n', 'emojivoto', 'po/emoji-6d66d87995-bvrnn', '8080', '-o', 'table');
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Error: output must be one of: yaml, json\n']);
    expect(asked).toHaveLength(1);
  });

  it('reports a missing destination pod and a controller that does not listen', async () => {
    const missing = await policyCli('--destination-pod', 'nope', 'po/a', '80');
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toBe('Error: port-forward to linkerd/nope:8090: pods "nope" not found\n');
    const down = await policyCli('--destination-pod', 'linkerd-destination-5d8-zz-down', '-n', 'emojivoto', 'po/emoji-6d66d87995-bvrnn', '8080');
    expect([down.code, down.stdout]).toEqual([1, '']);
    expect(down.stderr).toMatch(/^Error: rpc error: code = Unavailable desc = .+\n$/);
  });

  it('uses --destination-pod when given, and keeps the Go field order of outbound messages in JSON', async () => {
    const r = await policyCli('--destination-pod', 'linkerd-destination-5d8-x', '-n', 'emojivoto', 'svc/emoji-svc', '8080', '-o', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout) as {
      protocol: {
        Kind: { Detect: { http1: { routes: Array<{ rules: Array<{ backends: { Kind: { FirstAvailable: { backends: Array<{ backend: object }> } } } }> }> } } };
      };
    };
    const backend = doc.protocol.Kind.Detect.http1.routes[0]?.rules[0]?.backends.Kind.FirstAvailable.backends[0]?.backend ?? {};
    expect(Object.keys(backend)).toEqual(['metadata', 'Kind', 'queue']);
    expect(Object.keys(doc)).toEqual(['protocol', 'metadata']);
  });

  it('refuses an answer that is not the message it should be, in one line', async () => {
    const r = await policyCli('-n', 'emojivoto', 'po/garbage', '8080');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^Error: rpc error: code = Internal desc = .+\n$/);
  });

  it('reports a control plane without a running destination pod', async () => {
    const r = await policyCli('-L', 'elsewhere', 'po/a', '80');
    expect([r.code, r.stderr]).toEqual([1, 'Error: no running pods found for linkerd-destination\n']);
  });

  it('gives up at the deadline with Go context text', async () => {
    const { grpcAt } = await import('../../../src/core/kube/grpcForward.js');
    const conn = grpcAt(address);
    try {
      await expect(queryPolicy(conn.client, { kind: 'inbound', workload: 'emojivoto:slow', port: 8080 }, 300)).rejects.toThrow(
        'rpc error: code = DeadlineExceeded desc = context deadline exceeded',
      );
    } finally {
      conn.close();
    }
  });

  it('prints the first profile of the stream as Go indented JSON (diagnostics profile)', async () => {
    asked.length = 0;
    const r = await runCli(['--kubeconfig', kubeconfig, 'diagnostics', 'profile', '--token', '{"ns":"booksapp"}', 'books.booksapp.svc.cluster.local:8080']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(path.join(GOLDEN, 'profile.json'), r.stdout);
    expect(asked).toEqual([{ method: 'profile', req: { path: 'books.booksapp.svc.cluster.local:8080', context_token: '{"ns":"booksapp"}' } }]);
  });

  it('reports profile errors as the real command (Destination API error, exit 1)', async () => {
    const bad = await runCli(['--api-addr', address, 'diagnostics', 'profile', 'nope']);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, '', 'Destination API error: rpc error: code = InvalidArgument desc = Invalid authority: nope\n']);
    const eof = await runCli(['--api-addr', address, 'diagnostics', 'profile', 'empty.booksapp.svc.cluster.local:8080']);
    expect(eof.stderr).toBe('Destination API error: EOF\n');
    const noPod = await runCli(['--kubeconfig', kubeconfig, 'diagnostics', 'profile', '--destination-pod', 'nope', 'x:1']);
    expect([noPod.code, noPod.stderr]).toEqual([1, 'Error creating destination client: port-forward to linkerd/nope:8086: pods "nope" not found\n']);
  });

  it('reads one message of a stream and cancels it (firstOfStream)', async () => {
    const { grpcAt } = await import('../../../src/core/kube/grpcForward.js');
    const conn = grpcAt(address);
    try {
      const got = await firstOfStream(
        conn.client,
        m.DESTINATION_GET_PROFILE,
        m.GetDestination,
        { path: 'books.booksapp.svc.cluster.local:8080' },
        m.DestinationProfile,
        5_000,
      );
      expect(got.fully_qualified_name).toBe('books.booksapp.svc.cluster.local');
    } finally {
      conn.close();
    }
  });
});
