import { describe, expect, it } from 'vitest';
import { heartbeatScheduleAt } from '../../../src/core/mesh/heartbeatSchedule.js';

describe('heartbeat schedule', () => {
  it('is ten minutes from now, daily, as zero-padded MM HH in UTC', () => {
    expect(heartbeatScheduleAt(new Date('2026-03-04T05:01:00Z'))).toBe('11 05 * * *');
    expect(heartbeatScheduleAt(new Date('2026-03-04T23:55:30+00:00'))).toBe('05 00 * * *');
    expect(heartbeatScheduleAt(new Date('2026-03-04T12:00:00+02:00'))).toBe('10 10 * * *');
  });
});
