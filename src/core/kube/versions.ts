import type { GlobalOptions } from '../../cli/globals.js';

// Placeholder until the Kubernetes access layer lands.
export async function readVersions(_g: GlobalOptions, _o: { proxy: boolean; namespace?: string }): Promise<{ server: string; proxies?: Map<string, number> }> {
  return { server: 'unavailable' };
}
