/**
 * `linkerd install`: flags → values → identity and webhook credentials → validation → the
 * rendered objects, after the cluster pre-checks unless `--ignore-cluster`.
 */
export { renderInstall } from './renderInstall.js';
export type { InstallRequest, InstallResult } from './renderInstall.js';
export { heartbeatScheduleAt } from './heartbeatSchedule.js';
export { decideGatewayApi, gatewayApiState, selectGatewayCrds, GATEWAY_API_INSTALL_URL } from './gatewayApi.js';
export type { GatewayApiState, GatewayApiSelection, GatewayApiSwitches } from './gatewayApi.js';
export { initializeIdentityCredentials } from './identityCredentials.js';
export type { CredentialSources, ExternalIssuerData, IdentityCredentials } from './identityCredentials.js';
export { webhookCredentials } from './webhookCredentials.js';
