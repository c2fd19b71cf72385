import { describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded.js';

/*
 * Issue 24 item 9 through the built CLI: `--set` paths nested past Helm's cap are one `Error:`
 * line naming the flag, never a stack overflow ("This is a bug").
 */

describe('--set list indexes have the depth cap of dotted names (issue 24 item 9)', () => {
  it('install --set a[0]…[0]=x with 5,000 indexes is one line naming --set', async () => {
    const r = await runBounded(['install', '--ignore-cluster', '--set', `a${'[0]'.repeat(5000)}=x`]);
    expect(r.killed).toBeUndefined();
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'Error: failed parsing --set data: list index nested level is greater than maximum supported nested level of 30\n',
    ]);
  });
});
