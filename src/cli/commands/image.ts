import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { INTERRUPT_SIGNALS as INTERRUPTS } from '../../core/onInterrupt.js';
import type { CommandBody, CommandSpec } from '../kit/command.js';
import { printImageResult } from '../output/image.js';
import { spinnerFor } from '../output/terminal.js';

const EXAMPLES = `
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

const build: CommandSpec = {
  name: 'build',
  summary: 'Build an OCI image from an apko-style config (default: the embedded proxy config)',
  args: [{ name: 'CONFIG', help: 'image config (apko schema plus files and capabilities)' }],
  flags: [
    { name: 'output', short: 'o', type: 'string', required: true, help: 'Where to write the image: a directory (OCI layout) or FILE.tar' },
    { name: 'format', type: 'string', help: 'Output format: oci, oci-archive or docker-archive (default: docker-archive for *.tar, else oci)' },
    { name: 'tag', short: 't', type: 'string', default: 'linkerd/proxy:dev', help: 'The image reference recorded in the output' },
    { name: 'arch', type: 'strings', help: "Architecture to build (repeatable or comma-separated; default: the config's archs, else this machine's)" },
    {
      name: 'packages',
      type: 'stringArray',
      help: "A local package repository (.deb files, or an apk repository with APKINDEX.tar.gz); replaces the config's repositories (repeatable)",
    },
    { name: 'sbom', type: 'string', help: 'Also write an SPDX 2.3 JSON SBOM of every package and file' },
    { name: 'push', type: 'string', help: 'Push the image to a registry (OCI distribution API)' },
    { name: 'insecure', type: 'bool', default: false, help: 'Push over plain HTTP (loopback registries only)' },
  ],
  examples: EXAMPLES,
  run: async ({ args, flags, io }) => {
    const config = args[0] as string | undefined;
    const opts = parse(buildFlags, flags);
    const env = io.env;
    const spinner = await spinnerFor(io.stderr, env);
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
    printImageResult(result, io);
  },
};

const config: CommandSpec = {
  name: 'config',
  summary: 'Print the embedded image config (the proxy runtime), to start your own from',
  run: async ({ io }) => {
    const { defaultImageConfig } = await import('../../../templates/image/proxy-runtime.js');
    io.stdout.write(defaultImageConfig);
  },
};

export const command: CommandBody = { subcommands: [build, config] };
