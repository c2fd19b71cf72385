import type { Command } from 'commander';
import { acceptGoBools, addBoolFlag } from '../flags/boolFlags.js';
import { resolveGlobals } from '../globals.js';
import { registerRotate } from './identity-rotate.js';
import { terminalReport } from '../output/sanitize.js';

/**
 * `linkerd identity -- rotate` names a pod called `rotate`: after `--` every argument is a pod,
 * so it is given the `pod/` prefix that keeps commander from taking it for a subcommand.
 */
export function podsAfterDashDash(argv: string[]): string[] {
  const i = argv.indexOf('--');
  if (i < 0) return argv;
  return [...argv.slice(0, i), ...argv.slice(i + 1).map((a) => (a.startsWith('pod/') || a.startsWith('pods/') ? a : `pod/${a}`))];
}

export function register(program: Command): Command {
  const cmd = program
    .command('identity')
    .description('Display the certificate(s) of one or more selected pod(s); create, inspect and rotate identity certificates')
    .argument('[pods...]', 'pods (POD or pod/POD; after -- every argument is a pod, even one named like a subcommand)')
    .option('-n, --namespace <ns>', 'Namespace of the pod', 'default')
    .option('-l, --selector <selector>', 'Selector (label query) to filter on, supports ‘=’, ‘==’, and ‘!=’');
  // The root command consumes `--` before dispatching, so the rewrite happens at its level.
  const parseRoot = program.parseOptions.bind(program);
  program.parseOptions = (argv: string[]) => {
    const at = argv.indexOf('identity');
    return parseRoot(at >= 0 && at < argv.indexOf('--') ? podsAfterDashDash(argv) : argv);
  };

  cmd.action(async (pods: string[], flags: Record<string, unknown>) => {
    const globals = resolveGlobals(program);
    const { parseFlags, PodIdentityFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(PodIdentityFlags, flags);
    const { podIdentities } = await import('../../core/identity/podIdentity.js');
    const { podIdentityText } = await import('../output/identity-pods.js');
    const result = await podIdentities({ selection: globals, namespace: opts.namespace, pods, selector: opts.selector });
    process.stdout.write(terminalReport(podIdentityText(result)));
  });

  cmd
    .command('create-trust-anchor')
    .description('Create a trust anchor (a self-signed root CA) and its private key, in two new files')
    .option('--cert-out <file>', 'Certificate file to create (PEM); refused if it exists', 'ca.crt')
    .option('--key-out <file>', 'Private key file to create (PEM, mode 0600); refused if it exists', 'ca.key')
    .option('--common-name <cn>', 'Subject CN (default root.linkerd.<trust-domain>)')
    .option('--trust-domain <domain>', 'Trust domain of the mesh', 'cluster.local')
    .option('--validity <duration>', 'Validity period', '87600h')
    .option('--key-type <type>', 'Key type: ecdsa-p256, rsa-2048 or rsa-4096', 'ecdsa-p256')
    .action(async (flags: Record<string, unknown>) => {
      const { parseFlags, CreateTrustAnchorFlags } = await import('../flags/identityFlags.js');
      const opts = parseFlags(CreateTrustAnchorFlags, flags);
      const { createTrustAnchorFiles } = await import('../../core/identity/createCertificates.js');
      const { createdText } = await import('../output/identity-created.js');
      const created = await createTrustAnchorFiles({ ...opts, keyType: opts.keyType as 'ecdsa-p256' });
      process.stderr.write(createdText('trust anchor', created));
    });

  cmd
    .command('create-issuer')
    .description('Create an issuer certificate signed by a trust anchor, and its private key, in two new files')
    .option('--trust-anchor-file <file>', 'The signing trust anchor certificate (PEM)')
    .option('--trust-anchor-key-file <file>', 'The trust anchor private key (PEM)')
    .option('--cert-out <file>', 'Certificate file to create (PEM); refused if it exists', 'issuer.crt')
    .option('--key-out <file>', 'Private key file to create (PEM, mode 0600); refused if it exists', 'issuer.key')
    .option('--common-name <cn>', 'Subject CN (default identity.<linkerd-namespace>.<trust-domain>, what Linkerd expects)')
    .option('--trust-domain <domain>', 'Trust domain of the mesh', 'cluster.local')
    .option('--validity <duration>', 'Validity period (cut to the anchor’s)', '8760h')
    .action(async (flags: Record<string, unknown>) => {
      const globals = resolveGlobals(program);
      const { parseFlags, CreateIssuerFlags } = await import('../flags/identityFlags.js');
      const opts = parseFlags(CreateIssuerFlags, flags);
      const { createIssuerFiles } = await import('../../core/identity/createCertificates.js');
      const { createdText } = await import('../output/identity-created.js');
      const created = await createIssuerFiles({ ...opts, namespace: globals.linkerdNamespace });
      process.stderr.write(createdText('issuer', created));
    });

  const inspect = cmd
    .command('inspect')
    .description('Show the certificates of a PEM file, standard input (-) or the cluster (--cluster)')
    .argument('[file]', 'PEM file, or - for standard input')
    .option('--trust-anchors <file>', 'Also verify each certificate against this bundle')
    .option('-o, --output <format>', 'Output format: text or json', 'text');
  addBoolFlag(inspect, '--cluster', 'Inspect the trust roots ConfigMap, the issuer Secret and linkerd-config', { default: false });
  acceptGoBools(inspect).action(async (file: string | undefined, flags: Record<string, unknown>) => {
    const globals = resolveGlobals(program);
    const { parseFlags, InspectFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(InspectFlags, flags);
    const { inspect } = await import('../../core/identity/inspectRequest.js');
    const report = await inspect({ file, cluster: opts.cluster, trustAnchors: opts.trustAnchors, selection: globals, namespace: globals.linkerdNamespace });
    const { inspectJson, inspectText } = await import('../output/identity-inspect.js');
    process.stdout.write(opts.output === 'json' ? inspectJson(report) : terminalReport(inspectText(report)));
  });

  registerRotate(program, cmd);
  return cmd;
}
