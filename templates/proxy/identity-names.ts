/** DNS-form identity names of the mesh, as the identity controller issues them: `<sa>.<ns>.serviceaccount.identity.<cp-ns>.<td>`. */
export function trustDomainOf(values: { identityTrustDomain?: string; clusterDomain: string }): string {
  return values.identityTrustDomain || values.clusterDomain;
}

export function serviceAccountIdentity(serviceAccount: string, namespace: string, controlPlaneNamespace: string, trustDomain: string): string {
  return `${serviceAccount}.${namespace}.serviceaccount.identity.${controlPlaneNamespace}.${trustDomain}`;
}

/** CN of the identity issuer certificate: `identity.<cp-ns>.<td>`. */
export function issuerName(controlPlaneNamespace: string, trustDomain: string): string {
  return `identity.${controlPlaneNamespace}.${trustDomain}`;
}
