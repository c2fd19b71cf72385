import * as z from 'zod';
import type { CommandBody } from '../kit/command.js';

const Options = z.object({
  template: z.boolean(),
  openApi: z.string(),
  proto: z.string(),
  namespace: z.string().optional(),
  ignoreCluster: z.boolean(),
  output: z.string(),
});

export const command: CommandBody = {
  long: 'Output service profile config for Kubernetes.',
  args: [{ name: 'SERVICE', help: 'the Service the profile is for', required: true }],
  examples: `  # Output a basic template to apply after modification.
  linkerd profile -n emojivoto --template web-svc

  # Generate a profile from an OpenAPI specification.
  linkerd profile -n emojivoto --open-api web-svc.swagger web-svc

  # Generate a profile from a protobuf definition.
  linkerd profile -n emojivoto --proto Voting.proto vote-svc`,
  flags: [
    { name: 'template', type: 'bool', default: false, help: 'Output a service profile template' },
    { name: 'open-api', type: 'string', default: '', help: 'Output a service profile based on the given OpenAPI spec file' },
    { name: 'proto', type: 'string', default: '', help: 'Output a service profile based on the given Protobuf spec file' },
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the service', completion: 'namespaces' },
    { name: 'ignore-cluster', type: 'bool', default: false, help: 'Output a service profile through offline generation' },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: yaml, json' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const opts = Options.parse(flags);
    const { profileFormat, profileSource, renderProfile } = await import('../../core/profile/index.js');
    const source = profileSource(opts);
    const text = await renderProfile({
      service: String(args[0]),
      namespace: opts.namespace === '' ? undefined : opts.namespace,
      source,
      format: profileFormat(opts.output),
      ignoreCluster: opts.ignoreCluster,
      controlPlaneNamespace: globals.linkerdNamespace,
      cluster: globals,
      stdin: io.stdin,
    });
    io.stdout.write(text);
  },
};
