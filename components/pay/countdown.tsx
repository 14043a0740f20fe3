"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { utcDateTime } from "@/lib/orders/display-amount";
import styles from "./pay.module.css";

interface DurationFormatConstructor {
  new (locale: string, options: { style: "digital"; hoursDisplay: "auto" | "always" }): { format(duration: { hours: number; minutes: number; seconds: number }): string };
}

/** The time left as the locale writes a clock-style duration (Intl.DurationFormat), else "mm:ss" / "h:mm:ss". */
function format(ms: number, locale: string): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const DurationFormat = (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  if (DurationFormat) return new DurationFormat(locale, { style: "digital", hoursDisplay: "auto" }).format({ hours, minutes, seconds });
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
  const t = useTranslations("pay");
  const locale = useLocale();
  return (
    <span className={styles.countdown} data-testid="countdown">
      <time dateTime={expiresAt} aria-hidden="true">
        {timeLeft === null ? "--:--" : format(timeLeft, locale)}
      </time>
      <span className={styles.visuallyHidden}>{t("until", { deadline: utcDateTime(expiresAt, locale) })}</span>
    </span>
  );
}
