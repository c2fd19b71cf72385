import type { MulticlusterValues } from './values.js';

/** `<registry>/<last path segment of image>`: how LINKERD_DOCKER_REGISTRY moves an image. */
function movedTo(registry: string, image: string): string {
  const prefix = registry.endsWith('/') ? registry : `${registry}/`;
  return prefix + image.slice(image.lastIndexOf('/') + 1);
}

/**
 * `LINKERD_DOCKER_REGISTRY`, in the chart's values: the local service mirror's image moves (a
 * user's `--set localServiceMirror.image.name` still wins). The gateway's pause image and
 * `controllerDefaults.image.name` are left alone, as the real CLI leaves them.
 */
export function applyRegistry(values: MulticlusterValues, registry: string): void {
  if (registry) values.localServiceMirror.image.name = movedTo(registry, values.localServiceMirror.image.name);
}

/** `LINKERD_DOCKER_REGISTRY`, in the user's own `controllers` entries: each image they name moves. */
export function applyRegistryToControllers(values: MulticlusterValues, registry: string): void {
  if (!registry) return;
  for (const c of values.controllers) {
    if (c.image?.name) c.image.name = movedTo(registry, c.image.name);
  }
}
