import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { INTERRUPT_SIGNALS as INTERRUPTS } from '../../core/onInterrupt.js';
import { collect } from '../flags/collect.js';
import { printImageResult } from '../output/image.js';
import { spinnerFor } from '../output/terminal.js';

const EXAMPLES = `
Examples:
  # The proxy image from the embedded config, packages from a local apk repository, binaries in .
  linkerd image build --packages ./wolfi --output proxy.tar --tag cr.l5d.io/linkerd/proxy:dev

  # Your own config, as an OCI layout, pushed to a registry.
  linkerd image build proxy.yml --output ./proxy-oci --push registry.example:5000/linkerd/proxy:dev

  # Start from the embedded config.
  linkerd image config > proxy.yml`;

const buildFlags = z.object({
  output: z.string({ error: 'required flag --output not set (a directory for an OCI layout, or FILE.tar)' }).min(1),
  format: z.enum(['oci', 'oci-archive', 'docker-archive'], { error: '--format must be one of oci, oci-archive, docker-archive' }).optional(),
  tag: z.string().regex(/^[^\s@]+$/, '--tag must be NAME[:TAG]'),
  arch: z.array(z.string()).default([]),
  packages: z.array(z.string()).default([]),
  sbom: z.string().min(1).optional(),
  push: z.string().min(1).optional(),
  insecure: z.boolean(),
});

const epochSchema = z
  .string()
  .regex(/^\d{1,12}$/, 'SOURCE_DATE_EPOCH must be a whole number of seconds')
  .transform(Number);

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new UserError(r.error.issues[0]?.message ?? 'invalid flags');
  return r.data;
}

export function register(program: Command): Command {
  const image = program.command('image').description('Build the proxy runtime image: packages, local files and file capabilities, without Docker or root');
  image
    .command('build')
    .description('Build an OCI image from an apko-style config (default: the embedded proxy config)')
    .argument('[CONFIG]', 'image config (apko schema plus files and capabilities)')
    .option('-o, --output <path>', 'where to write the image: a directory (OCI layout) or FILE.tar')
    .option('--format <format>', 'oci | oci-archive | docker-archive (default: docker-archive for *.tar, else oci)')
    .option('-t, --tag <name:tag>', 'the image reference recorded in the output', 'linkerd/proxy:dev')
    .option('--arch <arch>', "architecture to build (repeatable or comma-separated; default: the config's archs, else this machine's)", collect)
    .option(
      '--packages <dir>',
      "a local package repository (.deb files, or an apk repository with APKINDEX.tar.gz); replaces the config's repositories (repeatable)",
      collect,
    )
    .option('--sbom <file>', 'also write an SPDX 2.3 JSON SBOM of every package and file')
    .option('--push <registry/repo:tag>', 'push the image to a registry (OCI distribution API)')
    .option('--insecure', 'push over plain HTTP (loopback registries only)', false)
    .addHelpText('after', EXAMPLES)
    .action(async (config: string | undefined, raw: Record<string, unknown>) => {
      const opts = parse(buildFlags, raw);
      const env = process.env;
      const spinner = await spinnerFor(process.stderr);
      // Ctrl-C (or SIGTERM, SIGHUP) stops the build between entries; core then removes its temporary
      // files and exits with the signal's shell code.
      const interrupt = new AbortController();
      const onSignal = (signal: NodeJS.Signals) => {
        interrupt.abort(signal);
      };
      for (const s of INTERRUPTS) process.once(s, onSignal);
      const { buildImage } = await import('../../core/image/build.js');
      spinner.start('building');
      const result = await buildImage({
        config,
        cwd: process.cwd(),
        output: opts.output,
        format: opts.format,
        tag: opts.tag,
        archs: opts.arch,
        packages: opts.packages,
        sbom: opts.sbom,
        sourceDateEpoch: env.SOURCE_DATE_EPOCH ? parse(epochSchema, env.SOURCE_DATE_EPOCH) : undefined,
        push: opts.push
          ? {
              reference: opts.push,
              insecure: opts.insecure,
              credentials: {
                username: env.LINKERD_REGISTRY_USERNAME,
                password: env.LINKERD_REGISTRY_PASSWORD,
                dockerConfigDir: env.DOCKER_CONFIG ?? (env.HOME ? `${env.HOME}/.docker` : undefined),
              },
            }
          : undefined,
        progress: (t) => spinner.text(t),
        signal: interrupt.signal,
      }).finally(() => {
        spinner.stop();
        for (const s of INTERRUPTS) process.off(s, onSignal);
      });
      printImageResult(result);
    });
  image
    .command('config')
    .description('Print the embedded image config (the proxy runtime), to start your own from')
    .action(async () => {
      const { defaultImageConfig } = await import('../../../templates/image/proxy-runtime.js');
      process.stdout.write(defaultImageConfig);
    });
  return image;
}
