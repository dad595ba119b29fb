import { describe, expect, it } from 'vitest';
import { formatZonedDateTime, isTimeZone } from './dates';

describe('dates the server writes', () => {
  it('are shaped as the app shows them, with the zone named', () => {
    expect(formatZonedDateTime(new Date('2026-07-04T18:05:00Z'), 'America/Chicago')).toBe(
      'Jul 04, 2026 01:05 PM CDT',
    );
    expect(formatZonedDateTime(new Date('2026-11-30T08:09:00Z'))).toBe('Nov 30, 2026 08:09 AM UTC');
    expect(formatZonedDateTime(new Date('2026-11-30T20:00:00Z'))).toBe('Nov 30, 2026 08:00 PM UTC');
  });

  it('know the zones the runtime knows', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
