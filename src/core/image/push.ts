import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { netErrorText } from '../net/netErrorText.js';
import { outboundFetch } from '../net/outboundFetch.js';
import type { Descriptor } from './oci.js';
import { MEDIA } from './oci.js';
import { credentialsFor, type RegistryCredentials } from './registryAuth.js';

/*
 * Pushes an OCI layout over the distribution API (distribution-spec v1.1): blobs are checked with
 * HEAD and uploaded when missing — in one PUT when small, in PATCH chunks when large — then the
 * manifests, then the tag. Basic auth, or a bearer token from the realm a 401 names.
 */

const CHUNK = 8 << 20;
const MONOLITHIC_MAX = 8 << 20;
const TIMEOUT_MS = 120_000;
const MAX_BODY = 1 << 20;

export interface PushTarget {
  reference: string;
  insecure: boolean;
  credentials: RegistryCredentials;
}

interface Ref {
  registry: string;
  repo: string;
  tag: string;
}

export function parsePushReference(ref: string): Ref {
  const slash = ref.indexOf('/');
  const registry = slash > 0 ? ref.slice(0, slash) : '';
  if (!registry || !/[.:]|^localhost$/.test(registry))
    throw new UserError(`--push ${ref}: expected REGISTRY/REPO:TAG (the registry host first, e.g. 127.0.0.1:5000/linkerd/proxy:dev)`);
  const rest = ref.slice(slash + 1);
  const colon = rest.lastIndexOf(':');
  const repo = colon > 0 ? rest.slice(0, colon) : rest;
  const tag = colon > 0 ? rest.slice(colon + 1) : 'latest';
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(repo))
    throw new UserError(`--push ${ref}: "${repo}" is not a valid repository name`);
  if (!/^\w[\w.-]{0,127}$/.test(tag)) throw new UserError(`--push ${ref}: "${tag}" is not a valid tag`);
  return { registry, repo, tag };
}

function isLoopback(host: string): boolean {
  const h = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

class Registry {
  private token?: string;
  private basic?: string;
  private readonly base: string;

  constructor(
    private readonly ref: Ref,
    insecure: boolean,
    private readonly creds: { username: string; password: string } | undefined,
  ) {
    this.base = `${insecure ? 'http' : 'https'}://${ref.registry}`;
    if (creds) this.basic = Buffer.from(`${creds.username}:${creds.password}`).toString('base64');
  }

  url(path: string): string {
    return path.startsWith('http') ? path : `${this.base}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const h = { ...extra };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    else if (this.basic && this.usedBasic) h.authorization = `Basic ${this.basic}`;
    return h;
  }

  private usedBasic = false;

  async request(method: string, path: string, init: { headers?: Record<string, string>; body?: Buffer } = {}, retried = false): Promise<Response> {
    const url = this.url(path);
    const outbound = await outboundFetch(new URL(url));
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: this.headers(init.headers ?? {}),
        body: init.body,
        redirect: 'follow',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...outbound.init,
      });
    } catch (e) {
      throw new UserError(`--push: ${method} ${url}: ${netErrorText(e, { target: new URL(url), proxy: outbound.proxy }).text}`);
    }
    if (res.status === 401 && !retried) {
      await drain(res);
      await this.authenticate(res.headers.get('www-authenticate') ?? '');
      return this.request(method, path, init, true);
    }
    return res;
  }

  private async authenticate(challenge: string): Promise<void> {
    const scheme = challenge.split(' ')[0]?.toLowerCase();
    if (scheme === 'basic') {
      if (!this.basic)
        throw new UserError(
          `--push: ${this.ref.registry} asks for a user and password (set LINKERD_REGISTRY_USERNAME and LINKERD_REGISTRY_PASSWORD, or log in with docker)`,
        );
      this.usedBasic = true;
      return;
    }
    if (scheme !== 'bearer') throw new UserError(`--push: ${this.ref.registry} refused access (WWW-Authenticate: ${challenge || 'none'})`);
    const params = new Map<string, string>();
    for (const m of challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g)) if (m[1] && m[2] !== undefined) params.set(m[1], m[2]);
    const realm = params.get('realm');
    if (!realm) throw new UserError(`--push: ${this.ref.registry}'s bearer challenge names no realm`);
    const u = new URL(realm);
    if (params.get('service')) u.searchParams.set('service', params.get('service') ?? '');
    u.searchParams.set('scope', params.get('scope') ?? `repository:${this.ref.repo}:pull,push`);
    const outbound = await outboundFetch(u);
    const res = await fetch(u, {
      headers: this.basic ? { authorization: `Basic ${this.basic}` } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
      ...outbound.init,
    }).catch((e: unknown) => {
      throw new UserError(`--push: token request to ${u.origin}: ${netErrorText(e, { target: u, proxy: outbound.proxy }).text}`);
    });
    const body = await boundedText(res);
    if (!res.ok) throw new UserError(`--push: ${u.origin} refused a token (${res.status})${this.creds ? '' : '; no credentials were given'}`);
    let doc: { token?: unknown; access_token?: unknown };
    try {
      doc = JSON.parse(body) as { token?: unknown; access_token?: unknown };
    } catch {
      throw new UserError(`--push: ${u.origin} answered the token request with something that is not JSON`);
    }
    const token = typeof doc.token === 'string' ? doc.token : typeof doc.access_token === 'string' ? doc.access_token : undefined;
    if (!token) throw new UserError(`--push: ${u.origin} answered without a token`);
    this.token = token;
  }
}

async function drain(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

async function boundedText(res: Response): Promise<string> {
  if (!res.body) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  const body = Readable.fromWeb(res.body) as AsyncIterable<unknown> & Readable;
  for await (const chunk of body) {
    if (!(chunk instanceof Uint8Array)) continue;
    size += chunk.length;
    if (size > MAX_BODY) {
      body.destroy();
      break;
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

async function fail(res: Response, what: string): Promise<never> {
  const body = (await boundedText(res)).slice(0, 300).replace(/\s+/g, ' ');
  throw new UserError(`--push: ${what}: ${res.status} ${res.statusText}${body ? ` ${body}` : ''}`);
}

async function pushBlob(reg: Registry, repo: string, layout: string, digest: string): Promise<void> {
  const file = join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length));
  const head = await reg.request('HEAD', `/v2/${repo}/blobs/${digest}`);
  await drain(head);
  if (head.ok) return;
  const { size } = await stat(file);
  const start = await reg.request('POST', `/v2/${repo}/blobs/uploads/`);
  if (start.status !== 202) await fail(start, `starting the upload of ${digest}`);
  await drain(start);
  let location = start.headers.get('location') ?? '';
  const withDigest = (loc: string) => `${reg.url(loc)}${loc.includes('?') ? '&' : '?'}digest=${encodeURIComponent(digest)}`;
  if (size <= MONOLITHIC_MAX) {
    const put = await reg.request('PUT', withDigest(location), {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      body: await readFile(file),
    });
    if (put.status !== 201) await fail(put, `uploading ${digest}`);
    await drain(put);
    return;
  }
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, size - offset), offset);
      const patch = await reg.request('PATCH', location, {
        headers: { 'content-type': 'application/octet-stream', 'content-range': `${offset}-${offset + bytesRead - 1}`, 'content-length': String(bytesRead) },
        body: buf.subarray(0, bytesRead),
      });
      if (patch.status !== 202) await fail(patch, `uploading a chunk of ${digest}`);
      await drain(patch);
      location = patch.headers.get('location') ?? location;
      offset += bytesRead;
    }
  } finally {
    await fh.close();
  }
  const done = await reg.request('PUT', withDigest(location), { headers: { 'content-length': '0' } });
  if (done.status !== 201) await fail(done, `finishing the upload of ${digest}`);
  await drain(done);
}

async function putManifest(reg: Registry, repo: string, reference: string, mediaType: string, body: Buffer): Promise<void> {
  const res = await reg.request('PUT', `/v2/${repo}/manifests/${reference}`, { headers: { 'content-type': mediaType }, body });
  if (res.status !== 201 && res.status !== 200) await fail(res, `putting manifest ${reference}`);
  await drain(res);
}

/** Refuses a malformed --push reference, or --insecure off loopback, before anything is built. */
export function checkPushTarget(target: PushTarget): Ref {
  const ref = parsePushReference(target.reference);
  if (target.insecure && !isLoopback(ref.registry))
    throw new UserError(`--insecure (plain HTTP) is only for a registry on the loopback address, not ${ref.registry}`);
  return ref;
}

/** Pushes what `top` (a manifest or an index) references, then tags it. Returns `REF@digest`. */
export async function pushLayout(layout: string, top: Descriptor, target: PushTarget, progress: (s: string) => void): Promise<string> {
  const ref = checkPushTarget(target);
  const reg = new Registry(ref, target.insecure, credentialsFor(ref.registry, target.credentials));
  const read = (d: string) => readFile(join(layout, 'blobs', 'sha256', d.slice('sha256:'.length)));
  const manifests: Descriptor[] = [];
  const topBytes = await read(top.digest);
  if (top.mediaType === MEDIA.index) {
    const index = JSON.parse(topBytes.toString('utf8')) as { manifests: Descriptor[] };
    manifests.push(...index.manifests);
  } else manifests.push(top);
  for (const m of manifests) {
    const bytes = await read(m.digest);
    const doc = JSON.parse(bytes.toString('utf8')) as { config: Descriptor; layers: Descriptor[] };
    for (const b of [...doc.layers, doc.config]) {
      progress(`pushing ${b.digest.slice(0, 19)}`);
      await pushBlob(reg, ref.repo, layout, b.digest);
    }
    if (top.mediaType === MEDIA.index) await putManifest(reg, ref.repo, m.digest, m.mediaType, bytes);
  }
  await putManifest(reg, ref.repo, ref.tag, top.mediaType, topBytes);
  return `${ref.registry}/${ref.repo}:${ref.tag}@${top.digest}`;
}
