/**
 * `linkerd install` and `linkerd upgrade`: ONE render path (renderControlPlaneFor); they
 * differ only in where the values come from — flags and files over chart defaults (install), or
 * chart defaults + the cluster's linkerd-config-overrides Secret + flags and files (upgrade).
 */
export { renderInstall } from './renderInstall.js';
export type { InstallRequest, InstallResult } from './renderInstall.js';
export { renderUpgrade, CRDS_FIRST, HELM_INSTALLED, EXTERNAL_ISSUER, ROTATION_WARNING } from './renderUpgrade.js';
export type { UpgradeRequest, UpgradeResult } from './renderUpgrade.js';
export { loadStoredValues, OVERRIDES_SECRET } from './loadStoredValues.js';
export type { StoredValues } from './loadStoredValues.js';
export type { UpgradeSource } from './upgradeSource.js';
export { podsRejectingIssuer, issuerUntrustedMessage } from './issuerSafety.js';
export { composeInputs } from './valueInputs.js';
export type { ValueInputs } from './valueInputs.js';
export { heartbeatScheduleAt } from './heartbeatSchedule.js';
export { decideGatewayApi, gatewayApiState, GATEWAY_API_INSTALL_URL } from './gatewayApi.js';
export type { GatewayApiState, GatewayApiSelection, GatewayApiSwitches } from './gatewayApi.js';
export { initializeIdentityCredentials, validateIssuerValues } from './identityCredentials.js';
export type { CredentialSources, ExternalIssuerData, IdentityCredentials } from './identityCredentials.js';
export { webhookCredentials } from './webhookCredentials.js';
export { renderControlPlaneFor, controlPlaneContext, changedObjects, WEBHOOK_SECRETS } from './renderControlPlaneFor.js';
export type { ControlPlaneRenderInput, InstalledState } from './renderControlPlaneFor.js';
