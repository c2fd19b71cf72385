import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeValues, defaultValues, readValuesFiles } from '../../../src/core/values/index.js';
import { valuesReader } from '../../../src/core/values/valuesFiles.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/values/${name}`, import.meta.url)), 'utf8');

/** A loopback server answering each path from a table; unknown paths get a 404. */
const ROUTES: Record<string, string> = {
  '/replicas.yaml': 'controllerReplicas: 3\ncontrollerLogLevel: debug\n',
  '/later.yaml': 'controllerReplicas: 4\n',
  '/malformed.yaml': fixture('malformed.yaml'),
  '/unknown-key.yaml': fixture('unknown-key.yaml'),
  '/list.yaml': '- a\n- b\n',
  '/empty.yaml': '',
};

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'l5d-values-url-'));
  server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/moved.yaml') {
      res.writeHead(302, { location: '/replicas.yaml' }).end();
    } else if (url === '/broken.yaml') {
      res.writeHead(500, 'Internal Server Error').end('boom');
    } else if (url === '/hang.yaml') {
      // Never answers: the deadline must fire.
    } else if (url === '/slow-body.yaml') {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.write('controllerReplicas: ');
      // ... and the rest never comes.
    } else if (url in ROUTES) {
      res.end(ROUTES[url]);
    } else {
      res.writeHead(404, 'Not Found').end('nope');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('-f URL: reading values files from http(s)', () => {
  it('fetches a values file and keeps the URL as its name', async () => {
    const [file] = await readValuesFiles([`${base}/replicas.yaml`]);
    expect(file).toEqual({
      path: `${base}/replicas.yaml`,
      values: { controllerReplicas: 3, controllerLogLevel: 'debug' },
      text: 'controllerReplicas: 3\ncontrollerLogLevel: debug\n',
    });
  });

  it('reads an empty answer as no values, and follows redirects', async () => {
    const files = await readValuesFiles([`${base}/empty.yaml`, `${base}/moved.yaml`]);
    expect(files.map((f) => f.values)).toEqual([{}, { controllerReplicas: 3, controllerLogLevel: 'debug' }]);
  });

  it('reports a non-200 answer in one line naming the URL', async () => {
    await expect(readValuesFiles([`${base}/missing.yaml`])).rejects.toThrow(
      new RegExp(`^unable to read URL "${base}/missing\\.yaml", server reported 404 Not Found, status code=404$`),
    );
    await expect(readValuesFiles([`${base}/broken.yaml`])).rejects.toThrow(
      `unable to read URL "${base}/broken.yaml", server reported 500 Internal Server Error, status code=500`,
    );
  });

  it('reports an unreachable host in one line naming the URL', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v.yaml`;
    await expect(readValuesFiles([url])).rejects.toThrow(`Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  });

  it('gives up at the deadline, whether the headers or the body never come', async () => {
    const reader = valuesReader({ timeoutMs: 200 });
    await expect(readValuesFiles([`${base}/hang.yaml`], reader)).rejects.toThrow(
      `Get "${base}/hang.yaml": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
    await expect(readValuesFiles([`${base}/slow-body.yaml`], reader)).rejects.toThrow(
      `Get "${base}/slow-body.yaml": context deadline exceeded (Client.Timeout or context cancellation while reading body)`,
    );
  });

  it('refuses plain http from other hosts and other schemes, naming the URL', async () => {
    await expect(readValuesFiles(['http://example.com/v.yaml'])).rejects.toThrow(
      /^-f http:\/\/example\.com\/v\.yaml: only HTTPS URLs are allowed \(plain http only from localhost\)$/,
    );
    await expect(readValuesFiles(['ftp://example.com/v.yaml'])).rejects.toThrow('-f ftp://example.com/v.yaml: only HTTPS URLs are allowed');
  });

  it('still reads anything that is not a URL as a local path', async () => {
    await expect(readValuesFiles(['no-such-dir/values.yaml'])).rejects.toThrow('open no-such-dir/values.yaml: no such file or directory');
    await expect(readValuesFiles(['file:///etc/values.yaml'])).rejects.toThrow('open file:///etc/values.yaml: no such file or directory');
  });

  it('reports malformed YAML as URL:LINE:COL: reason', async () => {
    await expect(readValuesFiles([`${base}/malformed.yaml`])).rejects.toThrow(
      new RegExp(`^${base.replace(/\./g, '\\.')}/malformed\\.yaml:3:\\d+: bad indentation of a mapping entry$`),
    );
    await expect(readValuesFiles([`${base}/list.yaml`])).rejects.toThrow(`${base}/list.yaml: a values file must contain a map of values, not a list`);
  });

  it('names the URL when its values fail validation', async () => {
    const files = await readValuesFiles([`${base}/replicas.yaml`, `${base}/unknown-key.yaml`]);
    expect(() => composeValues({ base: defaultValues(), valuesFiles: files })).toThrow(`${base}/unknown-key.yaml:2:3: proxy.logLevle: unknown key`);
  });
});

describe('-f URL precedence: later -f wins, --set wins over every -f', () => {
  const compose = async (args: string[], set: string[] = []) =>
    composeValues({ base: defaultValues(), valuesFiles: await readValuesFiles(args), set }).values.controllerReplicas;

  it('orders URLs and local files by their place on the command line', async () => {
    const local = join(dir, 'local.yaml');
    writeFileSync(local, 'controllerReplicas: 7\n');
    expect(await compose([`${base}/replicas.yaml`])).toBe(3);
    expect(await compose([local, `${base}/replicas.yaml`])).toBe(3);
    expect(await compose([`${base}/replicas.yaml`, local])).toBe(7);
    expect(await compose([`${base}/replicas.yaml`, `${base}/later.yaml`])).toBe(4);
    expect(await compose([`${base}/later.yaml`, `${base}/replicas.yaml`])).toBe(3);
  });

  it('lets --set beat a fetched file, which still sets what --set leaves alone', async () => {
    const { values } = composeValues({
      base: defaultValues(),
      valuesFiles: await readValuesFiles([`${base}/replicas.yaml`]),
      set: ['controllerReplicas=9'],
    });
    expect(values.controllerReplicas).toBe(9);
    expect(values.controllerLogLevel).toBe('debug');
  });
});
