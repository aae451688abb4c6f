import { useCallback, useEffect, useState } from 'react';

/** localStorage key of the deposit listening window's end (epoch ms), per user. */
export function listenKey(userId: string): string {
  return `usdtListenExpiredAt:${userId}`;
}

function readEnd(key: string): number | null {
  try {
    const value = Number(localStorage.getItem(key));
    return Number.isFinite(value) && value > Date.now() ? value : null;
  } catch {
    return null;
  }
}

function secondsUntil(end: number | null): number {
  return end === null ? 0 : Math.max(0, Math.ceil((end - Date.now()) / 1000));
}

/**
 * docs/spec/02-bots-wallet-account.md §4 Deposit: 'make payment' opens a listening window of the server's length; its end is kept in
 * localStorage so the countdown survives a reload. At zero the window closes and the stored end is removed.
 */
export function useListenWindow(userId: string) {
  const key = listenKey(userId);
  const [end, setEnd] = useState<number | null>(() => readEnd(key));
  const [secondsLeft, setSecondsLeft] = useState(() => secondsUntil(end));

  useEffect(() => {
    setEnd(readEnd(key));
  }, [key]);

  useEffect(() => {
    const tick = () => {
      const left = secondsUntil(end);
      setSecondsLeft(left);
      if (left === 0 && end !== null) {
        localStorage.removeItem(key);
        setEnd(null);
      }
      return left;
    };
    if (tick() === 0) return;
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [end, key]);

  const open = useCallback(
    (seconds: number) => {
      const next = Date.now() + seconds * 1000;
      localStorage.setItem(key, String(next));
      setEnd(next);
    },
    [key],
  );

  return { listening: end !== null && secondsLeft > 0, secondsLeft, open };
}
