"use client";

import { useEffect, useState } from "react";
import styles from "./pay.module.css";

function format(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mm = String(minutes).padStart(2, "0");
  const ss = String(seconds).padStart(2, "0");
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Milliseconds left until `expiresAt`, ticking every second; null before the first client render (no hydration mismatch). */
export function useTimeLeft(expiresAt: string): number | null {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const deadline = new Date(expiresAt).getTime();
    const tick = () => setLeft(deadline - Date.now());
    tick();
    const timer = setInterval(tick, 1_000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return left;
}

/**
 * The time left to pay. The visible clock is hidden from screen readers (a per-second announcement
 * would be noise); the accessible text is the deadline itself.
 */
export function Countdown({ expiresAt, timeLeft }: { expiresAt: string; timeLeft: number | null }) {
  const deadline = new Date(expiresAt);
  return (
    <span className={styles.countdown} data-testid="countdown">
      <time dateTime={expiresAt} aria-hidden="true">
        {timeLeft === null ? "--:--" : format(timeLeft)}
      </time>
      <span className={styles.visuallyHidden}>until {deadline.toUTCString()}</span>
    </span>
  );
}
