import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import type { AuthzSource, PodView } from './rows.js';

const OptionsSchema = z.object({
  namespace: z.string().default(''),
  filename: z.array(z.string()).default([]),
});

const EXAMPLES = `
  # The Servers and authorizations that apply to a deployment's pods.
  linkerd authz -n emojivoto deploy/web

  # The same question answered from manifests, before they are applied.
  linkerd authz -f ./k8s/ -n emojivoto deploy/web`;

interface Question {
  source: AuthzSource;
  pods: () => Promise<PodView[]>;
}

export const command: CommandBody = {
  long: 'List authorizations for a resource.',
  // cobra's RangeArgs(1, 2) and its Use line.
  args: [{ name: 'resource', help: 'TYPE, TYPE/NAME or TYPE NAME', variadic: true }],
  arity: { min: 1, max: 2 },
  use: '[flags] resource',
  examples: EXAMPLES,
  flags: [
    { name: 'namespace', short: 'n', type: 'string', default: '', help: 'Namespace of resource', completion: 'namespaces' },
    { name: 'filename', short: 'f', type: 'strings', default: [], help: 'Answer from these manifests (files or directories) instead of the cluster' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const words = (args[0] as string[] | undefined) ?? [];
    const o = OptionsSchema.parse(flags);
    const { parseResourceArg } = await import('../../../core/kube/friendlyNames.js');
    const resource = parseResourceArg(words, (r) => `invalid resource: ${r}`);
    const question =
      o.filename.length > 0 ? await fromManifests(o.filename, o.namespace || 'default', resource) : await fromCluster(globals, o.namespace, resource);
    let pods: PodView[];
    try {
      pods = await question.pods();
    } catch (e) {
      io.stderr.write(`failed to get pods: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
    const [{ authorizationsFor }, { authzTable }] = await Promise.all([import('./rows.js'), import('./table.js')]);
    const result = await authorizationsFor(question.source, pods);
    for (const w of result.warnings) io.stderr.write(`${w}\n`);
    io.stdout.write(authzTable(result.rows));
    return 0;
  },
};

async function fromCluster(
  globals: Parameters<NonNullable<CommandBody['run']>>[0]['globals'],
  namespace: string,
  resource: { type: string; name: string },
): Promise<Question> {
  const [{ connectKube }, { podsFor }, { clusterAuthzSource, podView }] = await Promise.all([
    import('../../../core/kube/kubeClient.js'),
    import('../../../core/kube/podsFor.js'),
    import('./clusterSource.js'),
  ]);
  const kube = await connectKube(globals);
  const ns = namespace || kube.namespace;
  const pods = async () => {
    if (resource.name !== '') return (await podsFor(kube, ns, resource.type, resource.name)).map(podView);
    // A bare TYPE lists objects of that kind; only pods can be listed so.
    if (resource.type !== 'pod') throw new Error(`unsupported resource type: ${resource.type}`);
    return (await kube.list('pods', { namespace: ns })).map(podView);
  };
  return { source: clusterAuthzSource(kube, ns), pods };
}

async function fromManifests(files: readonly string[], namespace: string, resource: { type: string; name: string }): Promise<Question> {
  const [{ readInputs }, { manifestAuthzSource, manifestPods }] = await Promise.all([import('../read.js'), import('./manifestSource.js')]);
  const { objects } = await readInputs(files, namespace);
  return {
    source: manifestAuthzSource(objects, namespace),
    pods: () => Promise.resolve().then(() => manifestPods(objects, namespace, resource.type, resource.name)),
  };
}
