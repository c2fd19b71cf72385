import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/** Compares `actual` with the golden file; `UPDATE_GOLDEN=1` rewrites it instead (review the diff). */
export function expectGoldenFile(file: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${file}; run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
