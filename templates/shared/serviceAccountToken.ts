import type { Volume, VolumeMount } from 'kubernetes-types/core/v1.js';

/*
 * The charts' `partials.volumes.manual-mount-service-account-token`: pods that turn
 * automountServiceAccountToken off get the API token projected by hand, mounted only into the
 * containers that talk to the API (never into the proxy).
 */

export const KUBE_API_ACCESS = 'kube-api-access';

export function kubeApiAccessVolume(): Volume {
  return {
    name: KUBE_API_ACCESS,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

export function kubeApiAccessMount(): VolumeMount {
  return { name: KUBE_API_ACCESS, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true };
}
