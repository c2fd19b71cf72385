/*
 * @kubernetes/client-node is loaded only when a command needs it: importing it costs 0.6 s.
 * Inside a V8 start-up snapshot (src/cli/snapshot/) there is no dynamic `import()`, so the
 * snapshot's start swaps in a `require()`-based loader (Node ≥ 20.19 can require ES modules).
 */

type PackageLoader = (specifier: string) => Promise<unknown>;

let load: PackageLoader = (specifier) => import(specifier);

/** Replaces how the package is loaded (the start-up snapshot's `require()`). */
export function setPackageLoader(loader: PackageLoader): void {
  load = loader;
}

/** The whole library: KubeConfig with exec plugins, auth providers and proxies. */
export function loadClientNode(): Promise<typeof import('@kubernetes/client-node')> {
  return load('@kubernetes/client-node') as Promise<typeof import('@kubernetes/client-node')>;
}

/** Only its kubeconfig entry parsing (clusters, users, contexts). */
export function loadConfigTypes(): Promise<typeof import('@kubernetes/client-node/dist/config_types.js')> {
  return load('@kubernetes/client-node/dist/config_types.js') as Promise<typeof import('@kubernetes/client-node/dist/config_types.js')>;
}

/** undici, for its ProxyAgent: fetch through a proxy. Loaded only when a proxy applies. */
export function loadUndici(): Promise<typeof import('undici')> {
  return load('undici') as Promise<typeof import('undici')>;
}
