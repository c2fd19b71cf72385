const two = (n: number) => String(n).padStart(2, '0');

/**
 * The heartbeat's first run: ten minutes after install (its Prometheus queries need a few
 * minutes of data), then daily at that time, as `MM HH * * *` in UTC, zero-padded like the
 * chart's `dateInZone "04 15 * * *"`.
 */
export function heartbeatScheduleAt(now: Date): string {
  const t = new Date(now.getTime() + 10 * 60 * 1000);
  return `${two(t.getUTCMinutes())} ${two(t.getUTCHours())} * * *`;
}
