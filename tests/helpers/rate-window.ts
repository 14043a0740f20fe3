import { vi } from "vitest";

/**
 * Runs `requests` with the Date clock stopped at the moment of the call (timers keep running), so
 * every request it makes counts in one rate-limit window. The windows are fixed clock hours
 * (lib/rate-limit/fixed-window.ts): a test that sends a limit's worth of requests on the running clock
 * fails whenever they straddle a full hour (a CI run's 101 passkey-option calls did, at 22:00).
 */
export async function inOneRateWindow<T>(requests: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  try {
    return await requests();
  } finally {
    vi.useRealTimers();
  }
}
