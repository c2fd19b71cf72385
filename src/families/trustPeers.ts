import type { TrustPeerSource } from '../core/identity/peers.js';
import { FAMILIES } from './registry.js';

/** The trust-peer sources of every family that declares one (`trustPeers:`), loaded now. */
export function trustPeerSources(): Promise<TrustPeerSource[]> {
  return Promise.all(FAMILIES.flatMap((f) => (f.trustPeers ? [f.trustPeers.load()] : [])));
}
