/*
 * Hostile inputs, generated (never stored): alias bombs, deep nesting, a Pod that uses one anchor
 * many times. Each is small as text; what matters is what it would expand to.
 */

/** A "billion laughs": 9 levels of 9 aliases to the level below (9^9 ≈ 387 million leaves). */
export function aliasBombLines(levels = 9): string[] {
  const names = 'abcdefghijklmnop';
  const lines = [`a: &a [${Array(9).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(', ')}]`,
    );
  return lines;
}

/** A values file whose `proxy.logLevel` is the bomb's top level. */
export function aliasBombValues(): string {
  return `${aliasBombLines().join('\n')}\nproxy:\n  logLevel: *i\n`;
}

/** A Pod with `n` containers sharing one `resources` block through an anchor. */
export function podWithSharedResources(n: number): string {
  let text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: many\nspec:\n  containers:\n';
  for (let i = 0; i < n; i++) {
    text += `  - name: c${i}\n    image: busybox\n`;
    text += i === 0 ? '    resources: &res\n      requests: {cpu: 10m, memory: 16Mi}\n      limits: {cpu: 100m, memory: 64Mi}\n' : '    resources: *res\n';
  }
  return text;
}

/** A Deployment carrying a bomb under a field nobody reads (`x-bomb`); `used` also puts it in a container's args. */
export function deploymentWithBomb(used = false): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'x-bomb:',
    ...aliasBombLines().map((l) => `  ${l}`),
    'spec:',
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web}',
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: nginx',
    ...(used ? ['        args: *i'] : []),
    '',
  ].join('\n');
}

/** `[[[…]]]` (also valid JSON) nested `depth` levels. */
export function deepFlow(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}\n`;
}

/** A block mapping nested `depth` levels, one key per line. */
export function deepBlock(depth: number): string {
  let text = '';
  for (let i = 0; i < depth; i++) text += `${' '.repeat(i)}k:\n`;
  return `${text}${' '.repeat(depth)}v: 1\n`;
}
