/**
 * `linkerd install` and `linkerd upgrade`: ONE render path (mesh/renderControlPlaneFor, shared with
 * identity rotation and prune); they differ only in where the values come from — flags and files over chart defaults (install), or
 * chart defaults + the cluster's linkerd-config-overrides Secret + flags and files (upgrade).
 */
export { renderInstall } from './renderInstall.js';
export type { InstallRequest, InstallResult } from './renderInstall.js';
export { renderUpgrade, CRDS_FIRST, EXTERNAL_ISSUER, ROTATION_WARNING } from './renderUpgrade.js';
export type { UpgradeRequest, UpgradeResult } from './renderUpgrade.js';
export type { UpgradeSource } from './upgradeSource.js';
export { podsRejectingIssuer, issuerUntrustedMessage } from './issuerSafety.js';
export { composeInputs } from './valueInputs.js';
export type { ValueInputs } from './valueInputs.js';
export { initializeIdentityCredentials, validateIssuerValues } from './identityCredentials.js';
export type { CredentialSources, ExternalIssuerData, IdentityCredentials } from './identityCredentials.js';
