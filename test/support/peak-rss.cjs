// Preloaded into a child (`node --require …/peak-rss.cjs`): writes its peak resident set size, in
// megabytes, to the file named by PEAK_RSS_FILE when it exits, so a test can bound its memory.
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS / 1024));
});
