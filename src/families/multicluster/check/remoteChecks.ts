import type { CheckContext } from '../../../core/check/context.js';
import { linkerdConfigValues } from '../../../core/check/facts.js';
import { trustBundle } from '../../../core/check/checks/certificates.js';
import { type CheckOutcome, fail, pass, skip } from '../../../core/check/types.js';
import { firstLine } from '../../../core/errors.js';
import { assessPeers, peerName } from '../../../core/identity/peers.js';
import { parseLinkerdConfigValues } from '../../../core/kube/linkerdConfig.js';
import { LINKERD_CONFIG } from '../../../core/mesh/names.js';
import { decodeCertificates, fingerprintSha256 } from '../../../core/pki/index.js';
import type { StoredLink } from '../linkResource.js';
import { readLinkPeer } from '../peers.js';
import { accessProblem, openLinkTarget } from '../remote.js';

/*
 * The checks that reach the linked clusters through each Link's credentials Secret (the real
 * #4 and #5), and this CLI's own check that our anchors and each peer's overlap (the condition
 * for cross-cluster mTLS during an anchor rotation, where #5's "identical sets" cannot hold).
 */

const remoteOptions = (ctx: CheckContext) => ({ timeoutMs: ctx.options.timeoutMs, env: ctx.options.env });

/** Runs `per` with an open client for each Link's target; access failures are the real messages. */
async function eachTarget(
  ctx: CheckContext,
  links: readonly StoredLink[],
  per: (client: import('../../../core/kube/kubeClient.js').KubeClient, l: StoredLink) => Promise<string[]>,
): Promise<{ problems: string[]; listed: string[] }> {
  const problems: string[] = [];
  const listed: string[] = [];
  for (const l of links) {
    const access = await openLinkTarget(ctx, l, remoteOptions(ctx));
    if (!access.ok) {
      problems.push(accessProblem(access, l.targetClusterName));
      continue;
    }
    try {
      const found = await per(access.client, l);
      problems.push(...found);
      listed.push(`\t* ${l.targetClusterName}`);
    } finally {
      access.client.close();
    }
  }
  return { problems, listed };
}

const SERVICE_VERBS = ['get', 'list', 'watch'] as const;

/** #4 `remote cluster access credentials are valid`. */
export async function remoteAccess(ctx: CheckContext, links: readonly StoredLink[]): Promise<CheckOutcome> {
  const { problems, listed } = await eachTarget(ctx, links, async (client, l) => {
    const c = l.targetClusterName;
    try {
      await client.serverVersion();
    } catch (e) {
      return [`* failed to connect to API for cluster: [${c}]: ${firstLine(e)}`];
    }
    const out: string[] = [];
    for (const verb of SERVICE_VERBS) {
      try {
        const r = await client.selfSubjectAccessReview({ verb, resource: 'services', version: 'v1' });
        if (!r.allowed)
          out.push(`* missing service permission [${verb}] for cluster [${c}]: not authorized to access services${r.reason ? `: ${r.reason}` : ''}`);
      } catch (e) {
        out.push(`* missing service permission [${verb}] for cluster [${c}]: ${firstLine(e)}`);
      }
    }
    return out;
  });
  if (problems.length > 0) return fail(problems.map((p) => `        ${p}`).join('\n'));
  return listed.length === 0 ? skip('no links') : pass(listed.join('\n'));
}

/** #5 `clusters share trust anchors`: the same set in both linkerd-configs, as the real check demands. */
export async function sharedAnchors(ctx: CheckContext, links: readonly StoredLink[]): Promise<CheckOutcome> {
  const localText = (await linkerdConfigValues(ctx))?.identityTrustAnchorsPEM;
  const local = decodeCertificates(typeof localText === 'string' ? localText.trim() : '');
  if (!local.ok) return fail(`Cannot parse source trust anchors: ${local.reason}`);
  const localSha = new Set(local.certificates.map(fingerprintSha256));
  const { problems, listed } = await eachTarget(ctx, links, async (client, l) => {
    const c = l.targetClusterName;
    let anchors: unknown;
    try {
      const cm = await client.find('configmaps', LINKERD_CONFIG, l.targetClusterLinkerdNamespace);
      if (cm === undefined) return [`* ${c}: unable to fetch anchors: configmaps "${LINKERD_CONFIG}" not found`];
      anchors = parseLinkerdConfigValues(cm).identityTrustAnchorsPEM;
    } catch (e) {
      return [`* ${c}: unable to fetch anchors: ${firstLine(e)}`];
    }
    const remote = decodeCertificates(typeof anchors === 'string' ? anchors.trim() : '');
    if (!remote.ok) return [`* ${c}: cannot parse trust anchors`];
    const same = remote.certificates.length === local.certificates.length && remote.certificates.every((r) => localSha.has(fingerprintSha256(r)));
    return same ? [] : [`* ${c}`];
  });
  if (problems.length > 0) return fail(`Problematic clusters:\n    ${problems.join('\n    ')}`);
  return listed.length === 0 ? skip('no links') : pass(listed.join('\n'));
}

/**
 * Beyond the real CLI: every linked cluster's control plane and gateway share at least one anchor
 * with our bundle, and its gateway's issuer chains to an anchor we trust — what cross-cluster
 * mTLS needs, also midway through a rotation. A peer that cannot be read is a problem too.
 */
export async function anchorsOverlap(ctx: CheckContext, links: readonly StoredLink[]): Promise<CheckOutcome> {
  if (links.length === 0) return skip('no links');
  const bundleText = (await trustBundle(ctx)).trim();
  const decoded = decodeCertificates(bundleText);
  if (!decoded.ok) return fail(`cannot parse the local trust bundle: ${decoded.reason}`);
  const ours = new Set(decoded.certificates.map(fingerprintSha256));
  const facts = await Promise.all(links.map((l) => readLinkPeer(ctx, l, remoteOptions(ctx))));
  const peers = await assessPeers(facts, { bundle: decoded.certificates, required: [], now: ctx.now() });
  const problems: string[] = [];
  for (const p of peers) {
    if (p.status === 'unknown') problems.push(`* ${peerName(p)}: cannot be read: ${p.error ?? ''}`);
    // An external CA keeps its anchors out of linkerd-config (p.overlaps undefined): nothing to compare, so it passes, as the real #5 does.
    else if (p.overlaps === false) problems.push(`* ${peerName(p)}: shares no trust anchor with this cluster`);
    else if (p.gateway?.issuerKnown && (p.gateway.issuerAnchor === undefined || !ours.has(p.gateway.issuerAnchor)))
      problems.push(`* ${peerName(p)}: its gateway's identity chains to an anchor this cluster does not trust`);
    else if (p.gateway === undefined && p.issuer?.known && (p.issuer.anchor === undefined || !ours.has(p.issuer.anchor)))
      problems.push(`* ${peerName(p)}: it has no gateway and its pods' identities chain to an anchor this cluster does not trust`);
  }
  const listed = peers.map((p) => `\t* ${p.name}${p.anchorsKnown === false ? ' (anchors not in its linkerd-config: external CA, not compared)' : ''}`);
  return problems.length > 0 ? fail(problems.join('\n')) : pass(listed.join('\n'));
}
