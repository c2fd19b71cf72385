import type { MetricsResult } from './metrics.js';

/* The two metrics commands' outputs, byte for byte as the real ones (their spacing differs). */

export function printControllerMetrics(results: readonly MetricsResult[]): string {
  return results
    .map((r, i) => {
      const head = `#\n# POD ${r.pod} (${i + 1} of ${results.length})\n`;
      return r.error !== undefined ? `${head}# ERROR ${r.error}\n` : `${head}# CONTAINER ${r.container} \n#\n${r.metrics ?? ''}`;
    })
    .join('');
}

export function printProxyMetrics(results: readonly MetricsResult[], obfuscate?: (text: string) => string): string {
  return results
    .map((r, i) => {
      const head = `#\n# POD ${r.pod} (${i + 1} of ${results.length})\n#\n`;
      if (r.error !== undefined) return `${head}# ERROR: ${r.error}\n`;
      if (!obfuscate) return head + (r.metrics ?? '');
      try {
        return head + obfuscate(r.metrics ?? '');
      } catch (e) {
        return `${head}# ERROR ${e instanceof Error ? e.message : String(e)}\n`;
      }
    })
    .join('');
}
