// The layering of src/ (docs/architecture.md), as a lint rule over every static import, export-from
// and dynamic import() with a relative path. ESLint's no-restricted-imports matches import strings
// only, so `../check/x.js` from two depths and `import()` would slip past it; this resolves paths.
import path from 'node:path';

/** Feature modules of core: each is one command area, and none imports another. */
const FEATURES = new Set(['check', 'identity', 'install', 'inject', 'image', 'lifecycle', 'profile']);

/** What part of src/ a repository-relative path is in. */
function placeOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'templates') return { area: 'templates' };
  if (parts[0] !== 'src') return { area: 'other' };
  if (parts[1] === 'core') {
    const name = parts.length > 3 ? parts[2] : undefined; // undefined: a file directly in src/core
    return { area: FEATURES.has(name) ? 'feature' : 'shared', name: name ?? path.basename(rel) };
  }
  if (parts[1] === 'families') return { area: 'families', name: parts.length > 3 ? parts[2] : undefined };
  if (parts[1] === 'cli') return { area: 'cli' };
  return { area: 'other' };
}

/** Why `from` may not import `to`, or undefined when it may. */
function violation(from, to, options) {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a.area === 'feature' || a.area === 'shared') {
    if (b.area === 'cli' || b.area === 'families') return 'core never imports the CLI or the families';
    if (a.area === 'feature' && b.area === 'feature' && a.name !== b.name)
      return `feature modules of core do not import each other: move what core/${a.name} and core/${b.name} share down to a shared module (kube, values, pki, manifest, input, files, net, mesh)`;
    if (a.area === 'shared' && b.area === 'feature') return `shared modules of core do not import feature modules: move what core/${a.name} needs down too`;
  }
  if (a.area === 'templates' && (b.area === 'feature' || b.area === 'cli' || b.area === 'families'))
    return 'templates are functions of the values: they import shared core only';
  if (a.area === 'families' && b.area === 'families' && a.name !== undefined && b.name !== undefined && a.name !== b.name)
    return `families do not import each other: share it through src/core or the CLI kit`;
  if (
    options.mainOnlyRegistry &&
    from === 'src/cli/main.ts' &&
    (to.startsWith('src/cli/commands/') || (b.area === 'families' && to !== 'src/families/registry.ts'))
  )
    return 'src/cli/main.ts loads commands only through src/families/registry.ts';
  return undefined;
}

export const layering = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the layers of src/ (core features, shared core, families, CLI) from importing sideways or upwards.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, mainOnlyRegistry: { type: 'boolean' } },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: { layering: '{{from}} may not import {{to}}: {{why}}.' },
  },
  create(context) {
    const options = context.options[0];
    const from = path.relative(options.root, context.filename).split(path.sep).join('/');
    const check = (source) => {
      const spec =
        source?.type === 'Literal'
          ? source.value
          : source?.type === 'TemplateLiteral' && source.expressions.length === 0
            ? source.quasis[0].value.cooked
            : undefined;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(context.filename), spec);
      const to = path.relative(options.root, resolved).split(path.sep).join('/').replace(/\.js$/, '.ts');
      const why = violation(from, to, options);
      if (why) context.report({ node: source, messageId: 'layering', data: { from, to, why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { layering } };
