import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { renderControlPlane, type ControlPlaneContext, type RenderedObject } from '../../../templates/control-plane/index.js';
import { createWebhookCert, generateEcdsaP256Key, type Credentials } from '../../../src/core/pki/index.js';
import { composeValues, defaultValues, type Values } from '../../../src/core/values/index.js';
import { LINKERD_VERSION } from '../../../src/core/version.js';

/** Shared helpers of the install tests (templates, core and CLI). */

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CERTS = 'fixtures/certs';

export function fixtureText(name: string): string {
  return readFileSync(`${ROOT}${CERTS}/${name}`, 'utf8');
}

/** The `valid` fixture set as values: anchors, issuer certificate and key. */
export function validIdentityValues(): Values {
  const v = defaultValues();
  v.identityTrustAnchorsPEM = fixtureText('valid-trust-anchors.pem');
  v.identity.issuer.tls.crtPEM = fixtureText('valid-crt.pem');
  v.identity.issuer.tls.keyPEM = fixtureText('valid-key.pem');
  return v;
}

/** Values as `install` would build them from `--set` arguments over the valid identity set. */
export function valuesWith(set: string[] = [], base: Values = validIdentityValues()): Values {
  return composeValues({ base, set }).values;
}

/** The `--ha` values (flag applied like the CLI does). */
export function haValues(): Values {
  return composeValues({ base: validIdentityValues(), flags: [{ name: 'ha', value: true }] }).values;
}

let webhookCreds: Promise<Record<'proxyInjector' | 'profileValidator' | 'policyValidator', Credentials>> | undefined;

/** One set of webhook serving certificates for the whole test file. */
export function pinnedWebhookCredentials() {
  webhookCreds ??= (async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const make = async (svc: string) =>
      createWebhookCert({
        dnsName: `${svc}.linkerd.svc`,
        notBefore: now,
        notAfter: new Date('2027-01-01T00:00:00Z'),
        keys: await generateEcdsaP256Key(),
      });
    const [proxyInjector, profileValidator, policyValidator] = await Promise.all([
      make('linkerd-proxy-injector'),
      make('linkerd-sp-validator'),
      make('linkerd-policy-validator'),
    ]);
    return { proxyInjector, profileValidator, policyValidator };
  })();
  return webhookCreds;
}

export async function pinnedContext(overrides: Partial<ControlPlaneContext> = {}): Promise<ControlPlaneContext> {
  return {
    namespace: 'linkerd',
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: 'linkerd-crds-2026.9.1',
    webhookCredentials: await pinnedWebhookCredentials(),
    heartbeatSchedule: '1 2 3 4 5',
    ...overrides,
  };
}

export async function render(values: Values = validIdentityValues(), ctx: Partial<ControlPlaneContext> = {}): Promise<RenderedObject[]> {
  return renderControlPlane(values, await pinnedContext(ctx));
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the kind they expect; the assertions check it
export function find<T = RenderedObject>(objects: readonly RenderedObject[], kind: string, name: string): T {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind}/${name} in the render`);
  return o as T;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  if (!existsSync(`${ROOT}dist/bundle/run.js`)) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
  // No ambient cluster, namespace or registry: each test says what it wants.
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: '/nonexistent/kubeconfig', ...extra };
  delete env.LINKERD_NAMESPACE;
  delete env.LINKERD_DOCKER_REGISTRY;
  return env;
}

/** Runs the built CLI (`bin/linkerd …`, its launcher included); build first with `npm run build`. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const r = spawnSync(`${ROOT}bin/linkerd`, args, { cwd: ROOT, env: cliEnv(opts.env), encoding: 'utf8', input: opts.input, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Like runCli, without blocking this process: needed when the test process also serves the
 * loopback API server the CLI talks to.
 */
export function runCliAsync(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${ROOT}bin/linkerd`, args, { cwd: ROOT, env: cliEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The documents of a `---`-separated YAML stream. */
export function parseDocs(text: string): RenderedObject[] {
  return (yaml.loadAll(text) as RenderedObject[]).filter((d) => d !== null && d !== undefined);
}
