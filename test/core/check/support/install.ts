import type { KubeObject } from '../../../../src/core/kube/resources.js';
import { renderInstall } from '../../../../src/core/install/index.js';

let cached: Promise<KubeObject[]> | undefined;

/** What `linkerd install` renders with default values (what `check --pre` derives its checks from). */
export function installManifestObjects(): Promise<KubeObject[]> {
  cached ??= renderInstall({ namespace: 'linkerd', crds: false, flags: [], valuesFiles: [], set: [], setString: [], setFile: [] }).then(
    (r) => r.objects as KubeObject[],
  );
  return cached.then((objects) => JSON.parse(JSON.stringify(objects)) as KubeObject[]);
}
