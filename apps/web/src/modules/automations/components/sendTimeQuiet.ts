export interface TQuietHours {
  /** HH:MM on the host's wall clock; equal start and end: no quiet hours. */
  start: string;
  end: string;
  timeZone: string;
}

const minutes = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * The quiet hours a scenario's send time falls in (the send path holds its mails until they end),
 * or null. Only when the scenario is timed in the zone of the quiet hours: in another zone the
 * wall-clock times do not compare.
 */
export function sendTimeInQuietHours(
  sendTime: string,
  timeZone: string,
  quiet: TQuietHours | null,
): TQuietHours | null {
  if (!quiet || quiet.timeZone !== timeZone) return null;
  const [start, end, at] = [minutes(quiet.start), minutes(quiet.end), minutes(sendTime)];
  if (start === end) return null;
  const inside = start < end ? at >= start && at < end : at >= start || at < end;
  return inside ? quiet : null;
}
