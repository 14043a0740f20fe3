"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { clockText, utcDateTime } from "@/lib/money/display-amount";
import styles from "./pay.module.css";

/** Milliseconds left until `expiresAt`, ticking every second; null before the first client render (no hydration mismatch). */
function useTimeLeft(expiresAt: string): number | null {
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

/** Longest delay setTimeout takes (about 24.8 days); a later deadline is waited for in steps. */
const maxTimeoutMs = 2 ** 31 - 1;

/**
 * Whether `expiresAt` has passed: false on the server and the first client render, true from the
 * deadline on. One timer, not a tick: the page around the clock renders once when time is up,
 * not every second.
 */
export function useTimeUp(expiresAt: string): boolean {
  const [timeUp, setTimeUp] = useState(false);
  useEffect(() => {
    const deadline = new Date(expiresAt).getTime();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = deadline - Date.now();
      setTimeUp(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, maxTimeoutMs));
    };
    check();
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return timeUp;
}

/**
 * The time left to pay, ticking every second on its own (only the clock renders again). The visible
 * clock is hidden from screen readers (a per-second announcement would be noise); the accessible
 * text is the deadline itself.
 */
export function Countdown({ expiresAt }: { expiresAt: string }) {
  const t = useTranslations("pay");
  const locale = useLocale();
  const timeLeft = useTimeLeft(expiresAt);
  return (
    <span className={styles.countdown} data-testid="countdown">
      <time dateTime={expiresAt} aria-hidden="true">
        {timeLeft === null ? "--:--" : clockText(timeLeft)}
      </time>
      <span className={styles.visuallyHidden}>{t("until", { deadline: utcDateTime(expiresAt, locale) })}</span>
    </span>
  );
}
