import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import {
  describeChainFailure,
  formatRFC3339,
  supportedAnchorAlgorithm,
  supportedIssuerAlgorithm,
  validityProblem,
  verifyChain,
  EXPIRY_WARNING_DAYS,
} from '../../pki/index.js';
import type { CheckContext } from '../context.js';
import { coreOptions } from '../coreOptions.js';
import { credentialsOf, decodeBundle, issuerMaterial, notFound, type Cert } from '../facts.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome } from '../types.js';
import { TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../../mesh/names.js';

const DAY_MS = 86_400_000;

/** `30d`, `12h`: how `--cert-min-validity` is shown back. */
export function formatValidity(ms: number): string {
  if (ms % DAY_MS === 0) return `${ms / DAY_MS}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  return `${Math.round(ms / 1000)}s`;
}

/**
 * linkerd's CheckExpiringSoon (`will expire on …` within 60 days), widened to
 * `--cert-min-validity` when that is longer; below `--cert-min-validity` the finding is
 * escalated to an error (linkerd/linkerd2#9612: an expiring issuer was only a warning).
 */
function expiry(ctx: CheckContext, c: Cert): { message: string; escalate: boolean } | undefined {
  const min = coreOptions(ctx.options).certMinValidityMs;
  const horizon = Math.max(EXPIRY_WARNING_DAYS * DAY_MS, min ?? 0);
  const left = c.info.notAfter.getTime() - ctx.now().getTime();
  if (left >= horizon) return undefined;
  const escalate = min !== undefined && left < min;
  const message = `will expire on ${formatRFC3339(c.info.notAfter)}`;
  return { message: escalate ? `${message} (less than the ${formatValidity(min)} required by --cert-min-validity)` : message, escalate };
}

const listed = (c: Cert, why: string) => `* ${c.info.serialDecimal} ${c.info.subjectCN} ${why}`;

function anchorsExpiringSoon(ctx: CheckContext, anchors: Cert[]): CheckOutcome {
  const soon = anchors.flatMap((a) => {
    const e = expiry(ctx, a);
    return e ? [{ a, e }] : [];
  });
  if (soon.length === 0) return pass();
  return fail(`Anchors expiring soon:\n\t${soon.map((x) => listed(x.a, x.e.message)).join('\n\t')}`, { escalate: soon.some((x) => x.e.escalate) });
}

function certExpiringSoon(ctx: CheckContext, c: Cert, prefix: string): CheckOutcome {
  const e = expiry(ctx, c);
  return e ? fail(`${prefix} ${e.message}`, { escalate: e.escalate }) : pass();
}

/** A serving certificate with the chain it was presented with. */
export interface ServingCert {
  leaf: Cert;
  chain: Cert[];
}

/**
 * linkerd's CheckCertAndAnchors: every anchor within its validity, the serving certificate too, and
 * issued by them for `dnsName` (the webhooks' and extensions' APIService/webhook certificates).
 */
export async function certAndAnchorsOutcome(ctx: CheckContext, anchors: Cert[], cert: ServingCert, dnsName: string): Promise<CheckOutcome> {
  const now = ctx.now();
  const expired = anchors.flatMap((a) => {
    const p = validityProblem(a.info, now);
    return p ? [listed(a, p)] : [];
  });
  if (expired.length > 0) return fail(`anchors not within their validity period:\n\t${expired.join('\n\t')}`);
  const p = validityProblem(cert.leaf.info, now);
  if (p) return fail(`certificate is ${p}`);
  const v = await verifyChain(
    cert.leaf.cert,
    cert.chain.map((c) => c.cert),
    anchors.map((a) => a.cert),
    now,
    { dnsName },
  );
  return v.ok ? pass() : fail(`cert is not issued by the trust anchor: ${describeChainFailure(v, cert.leaf.cert, now)}`);
}

/** linkerd's CheckCertAndAnchorsExpiringSoon: the chain's anchors, then the certificate. */
export function certAndAnchorsExpiringSoon(ctx: CheckContext, cert: ServingCert): CheckOutcome {
  const anchors = anchorsExpiringSoon(ctx, cert.chain);
  return anchors.kind === 'fail' ? anchors : certExpiringSoon(ctx, cert.leaf, 'certificate');
}

export const IDENTITY_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1801',
    category: 'linkerd-identity',
    description: 'certificate config is valid',
    severity: 'fatal',
    hintAnchor: 'l5d-identity-cert-config-valid',
    retryable: false,
    async run(ctx) {
      await issuerMaterial(ctx);
      return pass();
    },
  },
  {
    id: 'L5D1802',
    category: 'linkerd-identity',
    description: 'trust anchors are using supported crypto algorithm',
    severity: 'fatal',
    hintAnchor: 'l5d-identity-trustAnchors-use-supported-crypto',
    retryable: false,
    async run(ctx) {
      const invalid = (await issuerMaterial(ctx)).anchors.flatMap((a) => {
        const s = supportedAnchorAlgorithm(a.info);
        return s.supported ? [] : [listed(a, s.reason)];
      });
      return invalid.length > 0 ? fail(`Invalid trustAnchors:\n\t${invalid.join('\n\t')}`) : pass();
    },
  },
  {
    id: 'L5D1803',
    category: 'linkerd-identity',
    description: 'trust anchors are within their validity period',
    severity: 'fatal',
    hintAnchor: 'l5d-identity-trustAnchors-are-time-valid',
    retryable: false,
    async run(ctx) {
      const now = ctx.now();
      const invalid = (await issuerMaterial(ctx)).anchors.flatMap((a) => {
        const p = validityProblem(a.info, now);
        return p ? [listed(a, p)] : [];
      });
      return invalid.length > 0 ? fail(`Invalid anchors:\n\t${invalid.join('\n\t')}`) : pass();
    },
  },
  {
    id: 'L5D1804',
    category: 'linkerd-identity',
    description: 'trust anchors are valid for at least 60 days',
    severity: 'warning',
    hintAnchor: 'l5d-identity-trustAnchors-not-expiring-soon',
    retryable: false,
    async run(ctx) {
      return anchorsExpiringSoon(ctx, (await issuerMaterial(ctx)).anchors);
    },
  },
  {
    id: 'L5D1805',
    category: 'linkerd-identity',
    description: 'issuer cert is using supported crypto algorithm',
    severity: 'fatal',
    hintAnchor: 'l5d-identity-issuer-cert-uses-supported-crypto',
    retryable: false,
    async run(ctx) {
      const s = supportedIssuerAlgorithm((await issuerMaterial(ctx)).issuer.info);
      if (s.supported) return pass();
      return fail(s.reason.startsWith('issuer certificate') ? s.reason : `issuer certificate ${s.reason}`);
    },
  },
  {
    id: 'L5D1806',
    category: 'linkerd-identity',
    description: 'issuer cert is within its validity period',
    severity: 'fatal',
    hintAnchor: 'l5d-identity-issuer-cert-is-time-valid',
    retryable: false,
    async run(ctx) {
      const p = validityProblem((await issuerMaterial(ctx)).issuer.info, ctx.now());
      return p ? fail(`issuer certificate is ${p}`) : pass();
    },
  },
  {
    id: 'L5D1807',
    category: 'linkerd-identity',
    description: 'issuer cert is valid for at least 60 days',
    severity: 'warning',
    hintAnchor: 'l5d-identity-issuer-cert-not-expiring-soon',
    retryable: false,
    async run(ctx) {
      return certExpiringSoon(ctx, (await issuerMaterial(ctx)).issuer, 'issuer certificate');
    },
  },
  {
    id: 'L5D1808',
    category: 'linkerd-identity',
    description: 'issuer cert is issued by the trust anchor',
    severity: 'error',
    hintAnchor: 'l5d-identity-issuer-cert-issued-by-trust-anchor',
    retryable: false,
    async run(ctx) {
      const m = await issuerMaterial(ctx);
      const now = ctx.now();
      const v = await verifyChain(
        m.issuer.cert,
        m.chain.map((c) => c.cert),
        m.anchors.map((a) => a.cert),
        now,
      );
      return v.ok ? pass() : fail(describeChainFailure(v, m.issuer.cert, now));
    },
  },
];

/** Where a webhook's serving certificate and its caBundle live. */
interface Webhook {
  name: string;
  config: { resource: 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations'; name: string };
  secret: string;
  /** The pre-2.9 Secret name (keys crt.pem/key.pem), tried when the current one is missing. */
  legacySecret?: string;
  /** policy-validator is optional: its checks skip themselves when it is not installed. */
  optional?: boolean;
}

const WEBHOOKS: [Webhook, Webhook, Webhook] = [
  {
    name: 'proxy-injector',
    config: { resource: 'mutatingwebhookconfigurations', name: 'linkerd-proxy-injector-webhook-config' },
    secret: 'linkerd-proxy-injector-k8s-tls',
    legacySecret: 'linkerd-proxy-injector-tls',
  },
  {
    name: 'sp-validator',
    config: { resource: 'validatingwebhookconfigurations', name: 'linkerd-sp-validator-webhook-config' },
    secret: 'linkerd-sp-validator-k8s-tls',
    legacySecret: 'linkerd-sp-validator-tls',
  },
  {
    name: 'policy-validator',
    config: { resource: 'validatingwebhookconfigurations', name: 'linkerd-policy-validator-webhook-config' },
    secret: 'linkerd-policy-validator-k8s-tls',
    optional: true,
  },
];

const QUALIFIED = {
  mutatingwebhookconfigurations: 'mutatingwebhookconfigurations.admissionregistration.k8s.io',
  validatingwebhookconfigurations: 'validatingwebhookconfigurations.admissionregistration.k8s.io',
};

class NotInstalled extends Error {}

async function caBundle(ctx: CheckContext, hook: Webhook): Promise<Cert[]> {
  const config = await ctx.find(hook.config.resource, hook.config.name);
  if (!config) {
    if (hook.optional) throw new NotInstalled();
    throw notFound(QUALIFIED[hook.config.resource], hook.config.name);
  }
  const hooks = config.webhooks ?? [];
  const [hook0] = hooks;
  if (hooks.length !== 1 || hook0 === undefined) throw new Error(`expected 1 webhooks, found ${hooks.length}`);
  return decodeBundle(Buffer.from(hook0.clientConfig.caBundle ?? '', 'base64').toString('utf8'));
}

function secretText(secret: Secret, key: string): string | undefined {
  const b64 = secret.data?.[key];
  return b64 === undefined ? secret.stringData?.[key] : Buffer.from(b64, 'base64').toString('utf8');
}

function credsFrom(secret: Secret, name: string, crtKey: string, keyKey: string) {
  const crt = secretText(secret, crtKey);
  if (crt === undefined) throw new Error(`key ${crtKey} needs to exist in secret ${name}`);
  const key = secretText(secret, keyKey);
  if (key === undefined) throw new Error(`key ${keyKey} needs to exist in secret ${name}`);
  return credentialsOf(crt, key);
}

async function servingCert(ctx: CheckContext, hook: Webhook): Promise<ServingCert> {
  const ns = ctx.options.controlPlaneNamespace;
  const secret = await ctx.find('secrets', hook.secret, ns);
  if (secret) return credsFrom(secret, hook.secret, 'tls.crt', 'tls.key');
  if (hook.optional) throw new NotInstalled();
  const legacyName = hook.legacySecret;
  const legacy = legacyName ? await ctx.find('secrets', legacyName, ns) : undefined;
  if (!legacyName || !legacy) throw notFound('secrets', legacyName ?? hook.secret);
  return credsFrom(legacy, legacyName, 'crt.pem', 'key.pem');
}

function webhookChecks(hook: Webhook, validId: string, expiryId: string): CheckDefinition[] {
  const notInstalled = (e: unknown) => (e instanceof NotInstalled ? skip(`${hook.name} not installed`) : undefined);
  return [
    {
      id: validId,
      category: 'linkerd-webhooks-and-apisvc-tls',
      description: `${hook.name} webhook has valid cert`,
      severity: 'fatal',
      hintAnchor: `l5d-${hook.name}-webhook-cert-valid`,
      retryable: false,
      async run(ctx) {
        try {
          const anchors = await caBundle(ctx, hook);
          const cert = await servingCert(ctx, hook);
          return await certAndAnchorsOutcome(ctx, anchors, cert, `linkerd-${hook.name}.${ctx.options.controlPlaneNamespace}.svc`);
        } catch (e) {
          const s = notInstalled(e);
          if (s) return s;
          throw e;
        }
      },
    },
    {
      id: expiryId,
      category: 'linkerd-webhooks-and-apisvc-tls',
      description: `${hook.name} cert is valid for at least 60 days`,
      severity: 'warning',
      hintAnchor: `l5d-${hook.name}-webhook-cert-not-expiring-soon`,
      retryable: false,
      async run(ctx) {
        try {
          return certAndAnchorsExpiringSoon(ctx, await servingCert(ctx, hook));
        } catch (e) {
          const s = notInstalled(e);
          if (s) return s;
          throw e;
        }
      },
    },
  ];
}

export const WEBHOOK_CHECKS: CheckDefinition[] = [
  ...webhookChecks(WEBHOOKS[0], 'L5D1901', 'L5D1902'),
  ...webhookChecks(WEBHOOKS[1], 'L5D1903', 'L5D1904'),
  ...webhookChecks(WEBHOOKS[2], 'L5D1905', 'L5D1906'),
];

/** ConfigMap `linkerd-identity-trust-roots`, key `ca-bundle.crt`: the bundle proxies must trust. */
export async function trustBundle(ctx: CheckContext): Promise<string> {
  return ctx.fact('trust-bundle', async () => {
    const cm: ConfigMap | undefined = await ctx.find('configmaps', TRUST_ROOTS_CONFIGMAP, ctx.options.controlPlaneNamespace);
    if (!cm) throw notFound('configmaps', TRUST_ROOTS_CONFIGMAP);
    return cm.data?.[TRUST_BUNDLE_KEY] ?? '';
  });
}
