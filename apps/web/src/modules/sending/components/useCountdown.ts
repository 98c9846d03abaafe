import { useEffect, useState } from 'react';

/**
 * Seconds left until `seconds` (as the server counted them when `since` was fetched) have passed;
 * ticks once a second. The server's count is used rather than its clock, so a skewed clock on
 * this computer does not unlock the button early or late.
 */
export function useCountdown(seconds: number, since: number): number {
  const left = () => Math.max(0, Math.ceil(seconds - (Date.now() - since) / 1000));
  const [remaining, setRemaining] = useState(left);
  useEffect(() => {
    setRemaining(left());
    if (left() <= 0) return;
    const timer = setInterval(() => {
      const next = left();
      setRemaining(next);
      if (next <= 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds, since]);
  return remaining;
}

/** 95 → "1:35" */
export const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
