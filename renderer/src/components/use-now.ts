import { useEffect, useState } from 'react';

/** The browser's time now, read again every `intervalMs`: for what is shown ticking (a clock, a time left). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
