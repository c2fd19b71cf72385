import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/*
 * The layering rule of `npm run lint` (eslint.config.js, eslint/layering.js) on small virtual
 * files: the project's own config, without type information (the files do not exist, so they are
 * in no TypeScript program), which leaves the layering rule as it is.
 */
function eslint(overrides: Record<string, unknown> = {}) {
  return new ESLint({
    cwd: REPO_ROOT,
    overrideConfigFile: 'eslint.config.js',
    overrideConfig: [tseslint.configs.disableTypeChecked, overrides],
  });
}

async function layeringMessages(filePath: string, code: string, lint = eslint()): Promise<string[]> {
  const [result] = await lint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'linkerd/layering').map((m) => m.message);
}

describe('the layering lint rule', () => {
  it('refuses a core feature importing another feature (identity → check), naming both', async () => {
    const messages = await layeringMessages('src/core/identity/sideways.ts', "import { podStatus } from '../check/pods.js';\nexport const s = podStatus;\n");
    expect(messages).toEqual([
      'src/core/identity/sideways.ts may not import src/core/check/pods.ts: feature modules of core do not import each other: move what core/identity and core/check share down to a shared module (kube, values, pki, manifest, input, files, net, mesh).',
    ]);
  });

  it('sees dynamic imports, export-from and imports from deeper folders too', async () => {
    const code = [
      "export { renderInstall } from '../../install/index.js';",
      "export const later = () => import('../../inject/inject.js');",
      "export type { Values } from '../../values/index.js';",
      '',
    ].join('\n');
    const messages = await layeringMessages('src/core/check/checks/sideways.ts', code);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('may not import src/core/install/index.ts');
    expect(messages[1]).toContain('may not import src/core/inject/inject.ts');
  });

  it('refuses shared core importing a feature, and core importing the CLI or a family', async () => {
    const code = [
      "import { podStatus } from '../check/pods.js';",
      "import { runCli } from '../../cli/run.js';",
      "import viz from '../../families/viz/index.js';",
      'export const all = [podStatus, runCli, viz];',
      '',
    ].join('\n');
    const messages = await layeringMessages('src/core/net/sideways.ts', code);
    expect(messages).toEqual([
      'src/core/net/sideways.ts may not import src/core/check/pods.ts: shared modules of core do not import feature modules: move what core/net needs down too.',
      'src/core/net/sideways.ts may not import src/cli/run.ts: core never imports the CLI or the families.',
      'src/core/net/sideways.ts may not import src/families/viz/index.ts: core never imports the CLI or the families.',
    ]);
  });

  it('refuses a family importing another family, and allows it core and the CLI', async () => {
    const code = [
      "import { x } from '../multicluster/links.js';",
      "import { proxyContainer } from '../../core/mesh/proxyContainer.js';",
      "import { printTable } from '../../cli/output/table.js';",
      "import { checks } from './checks.js';",
      'export const all = [x, proxyContainer, printTable, checks];',
      '',
    ].join('\n');
    const messages = await layeringMessages('src/families/viz/commands.ts', code);
    expect(messages).toEqual([
      'src/families/viz/commands.ts may not import src/families/multicluster/links.ts: families do not import each other: share it through src/core or the CLI kit.',
    ]);
  });

  it('allows features to import shared core and their own files, and shared core each other', async () => {
    const feature = [
      "import { proxyContainer } from '../mesh/proxyContainer.js';",
      "import { podStatus } from './pods.js';",
      'export const all = [proxyContainer, podStatus];',
      '',
    ];
    expect(await layeringMessages('src/core/check/fine.ts', feature.join('\n'))).toEqual([]);
    const shared = [
      "import { UserError } from '../errors.js';",
      "import { connectKube } from '../kube/kubeClient.js';",
      'export const all = [UserError, connectKube];',
      '',
    ];
    expect(await layeringMessages('src/core/mesh/fine.ts', shared.join('\n'))).toEqual([]);
  });

  it('with mainOnlyRegistry, lets src/cli/main.ts load commands only through the family registry', async () => {
    const lint = eslint({
      files: ['src/**/*.ts'],
      rules: { 'linkerd/layering': ['error', { root: REPO_ROOT, mainOnlyRegistry: true }] },
    });
    const code = [
      "import { FAMILIES } from '../families/registry.js';",
      "export const load = () => import('./commands/install.js');",
      "export const viz = () => import('../families/viz/index.js');",
      'export const all = FAMILIES;',
      '',
    ].join('\n');
    const messages = await layeringMessages('src/cli/main.ts', code, lint);
    expect(messages).toEqual([
      'src/cli/main.ts may not import src/cli/commands/install.ts: src/cli/main.ts loads commands only through src/families/registry.ts.',
      'src/cli/main.ts may not import src/families/viz/index.ts: src/cli/main.ts loads commands only through src/families/registry.ts.',
    ]);
  });
});
