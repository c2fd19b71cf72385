import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type TapCall } from '../../../support/apiserver.js';
import { LINKERD_BIN, runCli } from '../../../support/cli.js';
import { expectGoldenFile } from '../../../support/golden.js';
import { decodeTapByResourceRequest } from '../../../../src/families/viz/tap/proto.js';
import { apiErrorFrame, eventFrames, framesServer, sampleEvents, vizNamespace } from '../../../support/tap-events.js';

const golden = (name: string) => path.join(__dirname, 'golden', name);

describe('viz tap (loopback API server, tap APIService)', () => {
  let server: ApiServer;
  let bare: ApiServer;
  const calls: TapCall[] = [];
  const tap = (args: string[], s: ApiServer = server) => runCli(['viz', 'tap', ...args, '--kubeconfig', s.kubeconfigPath]);

  beforeAll(async () => {
    [server, bare] = await Promise.all([startApiServer({ objects: [vizNamespace] }), startApiServer()]);
  });
  afterAll(async () => {
    await Promise.all([server.stop(), bare.stop()]);
  });
  afterEach(() => {
    calls.length = 0;
    server.setTap(undefined);
  });

  it('POSTs the protobuf request to the APIService path of the target and prints one line per event', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents()), calls));
    const r = await tap([
      'deploy/web',
      '-n',
      'emojivoto',
      '--to',
      'svc/voting-svc',
      '--to-namespace',
      'emojivoto',
      '--method',
      'POST',
      '--path',
      '/emojivoto',
      '--max-rps',
      '2.5',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(golden('tap_default.golden'), r.stdout);
    expect(calls.map((c) => c.resourcePath)).toEqual(['namespaces/emojivoto/deployments/web/tap']);
    expect(decodeTapByResourceRequest(calls[0]!.body)).toEqual({
      target: { resource: { namespace: 'emojivoto', type: 'deployment', name: 'web' }, labelSelector: '' },
      matches: [
        { destinations: { resource: { namespace: 'emojivoto', type: 'service', name: 'voting-svc' }, labelSelector: '' } },
        { http: { method: 'POST' } },
        { http: { path: '/emojivoto' } },
      ],
      maxRps: 2.5,
      extractHeaders: false,
    });
  });

  it('taps a namespace at its own path, in the kubeconfig namespace by default, at 100 rps, as the --as user', async () => {
    server.setTap(framesServer([], calls));
    const r = await tap(['ns', 'emojivoto']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(calls[0]!.resourcePath).toBe('namespaces/emojivoto/tap');
    const req = decodeTapByResourceRequest(calls[0]!.body);
    expect([req.target.resource, req.maxRps]).toEqual([{ namespace: '', type: 'namespace', name: 'emojivoto' }, 100]);
    server.setTap(framesServer([], calls));
    await tap(['po/web-1', '--as', 'alice']);
    expect([calls[1]!.resourcePath, calls[1]!.user]).toEqual(['namespaces/default/pods/web-1/tap', 'alice']);
  });

  it('-o wide adds the sorted src_, dst_ and rt_ labels', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents())));
    const r = await tap(['deploy/web', '-n', 'emojivoto', '-o', 'wide']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(golden('tap_wide.golden'), r.stdout);
  });

  it('-o json asks for headers and prints each event as Go indents it', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents()), calls));
    const r = await tap(['deploy/web', '-n', 'emojivoto', '-o', 'json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(decodeTapByResourceRequest(calls[0]!.body).extractHeaders).toBe(true);
    expectGoldenFile(golden('tap_json.golden'), r.stdout);
  });

  it('-o jsonpath prints what the expression selects, or the real error object per event', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents().slice(0, 2))));
    const r = await tap(['deploy/web', '-n', 'emojivoto', '-o', 'jsonpath={.source}']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(golden('tap_jsonpath.golden'), r.stdout);
    server.setTap(framesServer(eventFrames(sampleEvents().slice(0, 2))));
    const missing = await tap(['deploy/web', '-o', 'jsonpath=requestInitEvent.path']);
    expect(missing.stdout).toBe(
      '"/emojivoto.v1.VotingService/VoteDoughnut"\n{"error filtering JSON": "couldn\'t find any results matching with jsonpath filter"}\n',
    );
    const empty = await tap(['deploy/web', '-o', 'jsonpath=']);
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([1, '', '{"error jsonpath": "jsonpath filter not found"}\n']);
  });

  it('refuses an unknown -o, a target type tap cannot watch and a bad resource word before connecting', async () => {
    const before = bare.requestCount();
    expect(await tap(['deploy/web', '-o', 'yaml'], bare)).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'Error: validation error when executing tap command: output format "yaml" not recognized\n',
    });
    expect(await tap(['svc/web'], bare)).toMatchObject({ code: 1, stdout: '', stderr: 'unsupported resource type [service]\n' });
    expect(await tap(['deploy/web', '--to', 'sp/x'], bare)).toMatchObject({ code: 1, stderr: 'unsupported resource type [serviceprofile]\n' });
    expect(await tap(['wat/web'], bare)).toMatchObject({
      code: 1,
      stderr: 'target resource invalid: cannot find Kubernetes canonical name from friendly name [wat]\n',
    });
    expect(await tap(['deploy/web', '--max-rps', 'lots'], bare)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('invalid argument "lots" for "--max-rps" flag'),
    });
    expect(await tap(['a', 'b', 'c'], bare)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: accepts between 1 and 2 arg\(s\), received 3\nUsage:\n {2}linkerd viz tap \[flags\] \(RESOURCE\)\n/),
    });
    expect(bare.requestCount()).toBe(before);
  });

  it('says viz is not installed when no namespace carries the viz label', async () => {
    const r = await tap(['deploy/web'], bare);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      'Cannot connect to Linkerd Viz: namespace with label "linkerd.io/extension: viz" not found\nValidate the install with: linkerd viz check\n',
    );
  });

  it("prints the server's refusals as the real CLI does: a linkerd-error ApiError, a Status, an unavailable APIService", async () => {
    server.setTap(framesServer([apiErrorFrame('no pods to tap for type="deployment" name="web"')], [], { headers: { 'linkerd-error': 'no pods' } }));
    expect(await tap(['deploy/web'])).toMatchObject({ code: 1, stdout: '', stderr: 'no pods to tap for type="deployment" name="web"\n' });
    server.setTap(framesServer([Buffer.from([1, 2])], [], { headers: { 'linkerd-error': 'oops' } }));
    expect((await tap(['deploy/web'])).stderr).toBe(
      "Response has linkerd-error header [oops], but response body didn't contain protobuf error: error while reading message length: unexpected EOF\n",
    );
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'tap authorization failed (denied), visit https://linkerd.io/tap-rbac for more information',
      code: 403,
    };
    server.setTap(framesServer([Buffer.from(JSON.stringify(status))], [], { status: 403, headers: { 'Content-Type': 'application/json' } }));
    expect((await tap(['deploy/web'])).stderr).toBe(
      'HTTP error, status Code [403] (tap authorization failed (denied), visit https://linkerd.io/tap-rbac for more information)\n',
    );
    server.setTap(undefined);
    const r = await tap(['deploy/web']);
    expect([r.code, r.stderr]).toEqual([1, 'HTTP error, status Code [503] (the server is currently unable to handle the request)\n']);
  });

  it('refuses garbage: a frame that is not a TapEvent, after printing the events before it', async () => {
    const [first] = eventFrames(sampleEvents());
    const garbage = Buffer.from([5, 0, 0, 0, 0x0a, 0x09, 1, 2, 3]);
    server.setTap(framesServer([first!, garbage]));
    const r = await tap(['deploy/web', '-n', 'emojivoto']);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^error unmarshalling array of \[5\] bytes error: .+\n$/);
  });

  it('refuses a frame over the 4 MiB limit without reading it', async () => {
    const huge = Buffer.alloc(4);
    huge.writeUInt32LE(0xfffffff0, 0);
    server.setTap(framesServer([huge], [], { end: false }));
    const r = await tap(['deploy/web']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('error while reading message length: a frame of 4294967280 bytes is over the limit of 4194304 bytes\n');
  });

  it('says so when the stream breaks off inside a frame, and ends quietly when the server closes it', async () => {
    const [first, second] = eventFrames(sampleEvents());
    server.setTap(framesServer([first!, second!.subarray(0, 10)], [], { abort: true }));
    const broken = await tap(['deploy/web', '-n', 'emojivoto']);
    expect([broken.code, broken.stdout.split('\n').length, broken.stderr]).toEqual([1, 2, 'error while reading bytes from message: unexpected EOF\n']);
    server.setTap(framesServer([first!]));
    const ended = await tap(['deploy/web', '-n', 'emojivoto']);
    expect([ended.code, ended.stdout.split('\n').length, ended.stderr]).toEqual([0, 2, '']);
  });

  it('streams until Ctrl-C, which ends it as SIGINT does (exit 130)', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents().slice(0, 1)), [], { end: false }));
    const child = spawn(LINKERD_BIN, ['viz', 'tap', 'deploy/web', '-n', 'emojivoto', '--kubeconfig', server.kubeconfigPath], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
    });
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve();
      }),
    );
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
    child.kill('SIGINT');
    const [code, signal] = await exited;
    expect(out).toMatch(/^req id=7:3 proxy=out /);
    expect(code === 130 || signal === 'SIGINT').toBe(true);
  });
});
