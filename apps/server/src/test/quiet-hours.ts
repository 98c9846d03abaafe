/** Quiet hours from two hours ago to two hours ahead in Tokyo, so a send is inside them now. */
export function quietNow(): { start: string; end: string } {
  const hour = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()),
  );
  const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
  return { start: hh(hour - 2), end: hh(hour + 2) };
}
