/**
 * Dates written by the server (emails, notices, receipts) in the one shape the app shows
 * (MMM dd, yyyy hh:mm a, spec section 2), with the zone named since the reader's is unknown:
 * "Jul 04, 2026 01:05 PM CDT", or "Nov 30, 2026 08:09 AM UTC" by default.
 */
export function formatZonedDateTime(date: Date, timeZone = 'UTC') {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

/** True for a zone name the runtime knows (the client sends its own, e.g. Asia/Shanghai). */
export function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
