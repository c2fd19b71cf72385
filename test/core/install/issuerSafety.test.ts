import { describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { issuerUntrustedMessage, podsRejectingIssuer } from '../../../src/core/install/index.js';
import { fixtureText } from './support.js';
import { meshedPod } from './upgrade-support.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const anchors = fixtureText('valid-trust-anchors.pem');
const otherAnchors = fixtureText('wrong-anchor-trust-anchors.pem');
const issuer = fixtureText('valid-crt.pem');

/** The same pod with its proxy as a classic container instead of a native sidecar. */
function classic(pod: Pod): Pod {
  const proxies = (pod.spec?.initContainers ?? []).map(({ restartPolicy: _sidecar, ...proxy }) => proxy);
  return { ...pod, spec: { containers: [...(pod.spec?.containers ?? []), ...proxies] } };
}

describe('the issuer safety check of upgrade (ensureIssuerCertWorksWithAllProxies)', () => {
  it('lists pods whose proxy anchors do not verify the issuer, wherever the proxy container is', async () => {
    const pods: Pod[] = [
      meshedPod('shop', 'trusts', anchors),
      classic(meshedPod('shop', 'classic-trusts', anchors)),
      meshedPod('shop', 'other-anchor', otherAnchors),
      classic(meshedPod('shop', 'classic-other', otherAnchors)),
      meshedPod('shop', 'garbage', 'not PEM'),
      meshedPod('shop', 'empty', ''),
      // No trust-anchors variable (not a linkerd proxy we know): not judged.
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'no-env', namespace: 'shop' }, spec: { containers: [{ name: 'linkerd-proxy' }] } },
      meshedPod('linkerd', 'linkerd-identity-1', otherAnchors),
    ];
    expect(await podsRejectingIssuer(pods, 'linkerd', issuer, NOW)).toEqual(['* shop/other-anchor', '* shop/classic-other', '* shop/garbage', '* shop/empty']);
  });

  it('the refusal reads like the real CLI', () => {
    expect(issuerUntrustedMessage(['* a/b', '* c/d'])).toBe(
      'You are attempting to use an issuer certificate which does not validate against the trust anchors of the following pods:\n\t* a/b\n\t* c/d\n' +
        'These pods do not have the current trust bundle and must be restarted.  Use the --force flag to proceed anyway (this will likely prevent those pods from sending or receiving traffic).',
    );
  });
});
