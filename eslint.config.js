// Lint: typescript-eslint's recommended and strict rule sets, type-aware: every file is checked with
// the types of one program over sources and tests (tsconfig.eslint.json), built once rather than
// once per tsconfig. `npm run lint`; `npm test` runs it too.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layering from './eslint/layering.js';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Numbers print unambiguously in messages; booleans, nullish values and objects stay reported.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => void f()`-style shorthands are the idiom for callbacks; statement positions stay checked.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `const { a: _a, ...rest } = o` is how an object loses a key without a mutation.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // Values, kubeconfigs and manifests are plain JSON trees: deleting a key by name is the edit
      // itself (Helm's `--set a=null`), not a Map used as an object.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    // The layering of docs/architecture.md: core never imports the CLI or the families, core's feature
    // modules never import each other nor does shared core import them, families never import each
    // other, templates import shared core only; src/cli/main.ts loads commands only through
    // src/families/registry.ts (`mainOnlyRegistry`).
    files: ['src/**/*.ts', 'templates/**/*.ts'],
    plugins: { linkerd: layering },
    rules: { 'linkerd/layering': ['error', { root: import.meta.dirname, mainOnlyRegistry: true }] },
  },
  {
    // Plain JavaScript (benchmarks, build scripts, this file) has no types to check: the type-aware
    // rules would only report every value as `any`. The untyped rules still apply (and to the
    // declarations tests import a benchmark module with).
    files: ['**/*.js', '**/*.mjs', 'bench/*.d.mts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // A test that assumes a field exists fails at that line either way; a guard would only restate
      // the assertion. Source code keeps the rule.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests and the loopback API server handle unstructured JSON (API bodies, CLI output, stored
      // objects) and assert on its shape, as kube-apiserver's own unstructured code does: a value of
      // the wrong shape fails the assertion. Source code keeps these rules.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Stand-in checks, loaders and servers implement async interfaces without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // Tests type-check without noUncheckedIndexedAccess (test/tsconfig.json says why), and without it
      // this rule takes every indexed read for defined and reports the guards on them.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
);
