// Preloaded into a child (`node --import …/peak-rss.mjs`): writes its peak resident set size, in
// megabytes, to the file named by PEAK_RSS_FILE when it exits, so a test can bound its memory.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  writeFileSync(process.env.PEAK_RSS_FILE ?? 'peak-rss', String(process.resourceUsage().maxRSS / 1024));
});
