import { extensionNamespaces, linkerdValues, notFound } from '../facts.js';
import { fail, pass, skip, type CheckDefinition } from '../types.js';
import { EXTENSION_LABEL } from '../../mesh/names.js';

const HA_COMPONENTS = ['linkerd-destination', 'linkerd-identity', 'linkerd-proxy-injector'];

export const HA_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2601',
    category: 'linkerd-ha-checks',
    description: 'multiple replicas of control plane pods',
    severity: 'warning',
    hintAnchor: 'l5d-control-plane-replicas',
    retryable: true,
    async run(ctx) {
      const values = await linkerdValues(ctx);
      // Helm installs with values-ha.yaml set the replicas without `highAvailability` (linkerd/linkerd2#10939).
      if (!values.highAvailability && values.controllerReplicas <= 1) return skip('not run for non HA installs');
      const ns = ctx.options.controlPlaneNamespace;
      const faulty: string[] = [];
      for (const name of HA_COMPONENTS) {
        const d = await ctx.find('deployments', name, ns);
        if (!d) return fail(notFound('deployments.apps', name).message);
        if ((d.status?.availableReplicas ?? 0) <= 1) faulty.push(name);
      }
      return faulty.length > 0 ? fail(`not enough replicas available for [${faulty.join(' ')}]`) : pass();
    },
  },
];

export const EXTENSION_NAMESPACE_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2701',
    category: 'linkerd-extension-checks',
    description: 'namespace configuration for extensions',
    severity: 'warning',
    hintAnchor: 'l5d-extension-namespaces',
    retryable: false,
    async run(ctx) {
      const byExtension = new Map<string, string[]>();
      for (const { extension, namespace } of await extensionNamespaces(ctx)) {
        byExtension.set(extension, [...(byExtension.get(extension) ?? []), namespace]);
      }
      const errs = [...byExtension]
        .filter(([, namespaces]) => namespaces.length > 1)
        .map(
          ([ext, namespaces]) =>
            `\t* label "${EXTENSION_LABEL}=${ext}" is present on more than one namespace:\n${namespaces.map((n) => `\t\t* ${n}`).join('\n')}`,
        );
      return errs.length > 0 ? fail(['some extensions have invalid configuration', ...errs].join('\n')) : pass();
    },
  },
];
