import type { CommandBody, CommandSpec } from '../kit/command.js';
import { rotate } from './identity-rotate.js';
import { terminalReport } from '../output/sanitize.js';

/**
 * `linkerd identity -- rotate` names a pod called `rotate`: after `--` every argument is a pod,
 * so it is given the `pod/` prefix that keeps commander from taking it for a subcommand.
 */
export function podsAfterDashDash(operands: readonly string[]): string[] {
  return operands.map((a) => (a.startsWith('pod/') || a.startsWith('pods/') ? a : `pod/${a}`));
}

const createTrustAnchor: CommandSpec = {
  name: 'create-trust-anchor',
  summary: 'Create a trust anchor (a self-signed root CA) and its private key, in two new files',
  flags: [
    { name: 'cert-out', type: 'string', default: 'ca.crt', help: 'Certificate file to create (PEM); refused if it exists' },
    { name: 'key-out', type: 'string', default: 'ca.key', help: 'Private key file to create (PEM, mode 0600); refused if it exists' },
    { name: 'common-name', type: 'string', help: 'Subject CN (default root.linkerd.<trust-domain>)' },
    { name: 'trust-domain', type: 'string', default: 'cluster.local', help: 'Trust domain of the mesh' },
    { name: 'validity', type: 'duration', default: '87600h', help: 'Validity period' },
    { name: 'key-type', type: 'string', default: 'ecdsa-p256', help: 'Key type: ecdsa-p256, rsa-2048 or rsa-4096' },
  ],
  run: async ({ flags, io }) => {
    const { parseFlags, CreateTrustAnchorFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(CreateTrustAnchorFlags, flags);
    const { createTrustAnchorFiles } = await import('../../core/identity/createCertificates.js');
    const { createdText } = await import('../output/identity-created.js');
    const created = await createTrustAnchorFiles({ ...opts, keyType: opts.keyType as 'ecdsa-p256' });
    io.stderr.write(createdText('trust anchor', created));
  },
};

const createIssuer: CommandSpec = {
  name: 'create-issuer',
  summary: 'Create an issuer certificate signed by a trust anchor, and its private key, in two new files',
  flags: [
    { name: 'trust-anchor-file', type: 'string', required: true, help: 'The signing trust anchor certificate (PEM)' },
    { name: 'trust-anchor-key-file', type: 'string', required: true, help: 'The trust anchor private key (PEM)' },
    { name: 'cert-out', type: 'string', default: 'issuer.crt', help: 'Certificate file to create (PEM); refused if it exists' },
    { name: 'key-out', type: 'string', default: 'issuer.key', help: 'Private key file to create (PEM, mode 0600); refused if it exists' },
    { name: 'common-name', type: 'string', help: 'Subject CN (default identity.<linkerd-namespace>.<trust-domain>, what Linkerd expects)' },
    { name: 'trust-domain', type: 'string', default: 'cluster.local', help: 'Trust domain of the mesh' },
    { name: 'validity', type: 'duration', default: '8760h', help: 'Validity period (cut to the anchor’s)' },
  ],
  run: async ({ flags, globals, io }) => {
    const { parseFlags, CreateIssuerFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(CreateIssuerFlags, flags);
    const { createIssuerFiles } = await import('../../core/identity/createCertificates.js');
    const { createdText } = await import('../output/identity-created.js');
    const created = await createIssuerFiles({ ...opts, namespace: globals.linkerdNamespace });
    io.stderr.write(createdText('issuer', created));
  },
};

const inspect: CommandSpec = {
  name: 'inspect',
  summary: 'Show the certificates of a PEM file, standard input (-) or the cluster (--cluster)',
  args: [{ name: 'file', help: 'PEM file, or - for standard input' }],
  flags: [
    { name: 'trust-anchors', type: 'string', help: 'Also verify each certificate against this bundle' },
    { name: 'output', short: 'o', type: 'string', default: 'text', help: 'Output format: text or json' },
    { name: 'cluster', type: 'bool', default: false, help: 'Inspect the trust roots ConfigMap, the issuer Secret and linkerd-config' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const { parseFlags, InspectFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(InspectFlags, flags);
    const { inspect } = await import('../../core/identity/inspectRequest.js');
    const file = args[0] as string | undefined;
    const report = await inspect({ file, cluster: opts.cluster, trustAnchors: opts.trustAnchors, selection: globals, namespace: globals.linkerdNamespace });
    const { inspectJson, inspectText } = await import('../output/identity-inspect.js');
    io.stdout.write(opts.output === 'json' ? inspectJson(report) : terminalReport(inspectText(report)));
  },
};

export const command: CommandBody = {
  // The real CLI's examples.
  examples: `  # Get certificate from pod foo-bar in the default namespace.
  linkerd identity foo-bar

  # Get certificate from all pods with the label name=nginx
  linkerd identity -l name=nginx`,
  args: [{ name: 'pods', help: 'pods (POD or pod/POD; after -- every argument is a pod, even one named like a subcommand)', variadic: true }],
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the pod (default: the kubeconfig context’s)', completion: 'namespaces' },
    { name: 'selector', short: 'l', type: 'string', help: 'Selector (label query) to filter on, supports ‘=’, ‘==’, and ‘!=’' },
  ],
  dashDash: podsAfterDashDash,
  subcommands: [createTrustAnchor, createIssuer, inspect, rotate],
  run: async ({ args, flags, globals, io }) => {
    const { parseFlags, PodIdentityFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(PodIdentityFlags, flags);
    const { podIdentities } = await import('../../core/identity/podIdentity.js');
    const { podIdentityText } = await import('../output/identity-pods.js');
    const result = await podIdentities({ selection: globals, namespace: opts.namespace, pods: args[0] as string[], selector: opts.selector });
    io.stdout.write(terminalReport(podIdentityText(result)));
  },
};
