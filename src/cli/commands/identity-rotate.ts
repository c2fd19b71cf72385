import type { Command } from 'commander';
import { acceptGoBools, addBoolFlag } from '../flags/boolFlags.js';
import { collect } from '../flags/collect.js';
import { resolveGlobals } from '../globals.js';
import { terminalReport, notesText } from '../output/sanitize.js';

type StepOutput = { objects: object[]; notes: string[] };

/** The manifest on stdout (for `kubectl apply -f -`), what to do next on stderr. */
async function printStep(result: StepOutput): Promise<void> {
  const { renderManifest } = await import('../output/manifest.js');
  process.stdout.write(renderManifest(result.objects, 'yaml'));
  process.stderr.write(notesText(result.notes));
}

/** `linkerd identity rotate status|add-anchor|issuer|remove-anchor`. */
export function registerRotate(program: Command, identity: Command): void {
  const rotate = identity
    .command('rotate')
    .description('Guided trust-anchor and issuer rotation; every step reads the cluster, so a half-done rotation resumes');

  rotate
    .command('status')
    .description('Where the rotation stands: stage, certificates, pods that still run with old anchors, next command')
    .option('-o, --output <format>', 'Output format: text or json', 'text')
    .action(async (flags: Record<string, unknown>) => {
      const globals = resolveGlobals(program);
      const { parseFlags, StatusFlags } = await import('../flags/identityFlags.js');
      const opts = parseFlags(StatusFlags, flags);
      const { readRotationState } = await import('../../core/identity/rotationState.js');
      const state = await readRotationState(globals, globals.linkerdNamespace);
      const { rotationJson, rotationText } = await import('../output/identity-rotation.js');
      process.stdout.write(opts.output === 'json' ? rotationJson(state) : terminalReport(rotationText(state)));
      // A half-applied step, or an issuer meshed pods reject, is a problem; any other stage is a
      // rotation at rest or on its way.
      if (state.stage === 'inconsistent' || state.stage === 'issuer-untrusted') process.exitCode = 1;
    });

  const add = rotate
    .command('add-anchor')
    .description('Render the trust bundle with a new anchor added, everywhere the anchors live')
    .option('--trust-anchor-file <file>', 'The new trust anchor (PEM)');
  addBoolFlag(add, '--force', 'Proceed although the anchors in the cluster disagree', { default: false });
  acceptGoBools(add).action(async (flags: Record<string, unknown>) => {
    const globals = resolveGlobals(program);
    const { parseFlags, AddAnchorFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(AddAnchorFlags, flags);
    const { addAnchor } = await import('../../core/identity/rotationSteps.js');
    await printStep(await addAnchor({ selection: globals, namespace: globals.linkerdNamespace, ...opts }));
  });

  const issuer = rotate
    .command('issuer')
    .description('Render the issuer Secret with a new issuer; refused while a meshed pod does not trust its anchor')
    .option('--issuer-certificate-file <file>', 'The new issuer certificate (PEM)')
    .option('--issuer-key-file <file>', 'The new issuer private key (PEM)')
    .option('--trust-anchor-key <file>', 'With --generate: the private key of the signing anchor')
    .option('--validity <duration>', 'With --generate: validity of the issuer (cut to the anchor’s)', '8760h');
  addBoolFlag(issuer, '--generate', 'Generate the issuer, signed by the bundle anchor whose key is --trust-anchor-key', { default: false });
  addBoolFlag(issuer, '--force', 'Proceed although meshed pods do not trust the new issuer’s anchor yet', { default: false });
  acceptGoBools(issuer).action(async (flags: Record<string, unknown>) => {
    const globals = resolveGlobals(program);
    const { parseFlags, durationMs, IssuerFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(IssuerFlags, flags);
    const { switchIssuer, issuerSource } = await import('../../core/identity/rotationSteps.js');
    const source = issuerSource(opts.generate, opts.trustAnchorKey, durationMs(opts.validity));
    await printStep(await switchIssuer({ selection: globals, namespace: globals.linkerdNamespace, ...opts, generate: source }));
  });

  const remove = rotate
    .command('remove-anchor')
    .description('Render the trust bundle without the old anchors; refused while the issuer or a pod depends on them')
    .option('--trust-anchor-file <file>', 'Keep only the anchors of this file')
    .option('--keep <sha256>', 'Keep the anchor with this SHA-256 fingerprint (repeatable; a unique prefix of 8+ digits)', collect, []);
  addBoolFlag(remove, '--force', 'Proceed although pods were not restarted yet', { default: false });
  acceptGoBools(remove).action(async (flags: Record<string, unknown>) => {
    const globals = resolveGlobals(program);
    const { parseFlags, RemoveAnchorFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(RemoveAnchorFlags, flags);
    const { removeAnchor } = await import('../../core/identity/rotationSteps.js');
    await printStep(await removeAnchor({ selection: globals, namespace: globals.linkerdNamespace, ...opts }));
  });
}
