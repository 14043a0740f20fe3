import "server-only";
import { chainHeads, metrics } from "./registry";

/** What the domains record as it happens, on the process's registry (lib/metrics/registry.ts). */

/** Called after each chain tick with the head it saw. */
export function recordChainHead(chainSlug: string, head: bigint): void {
  chainHeads.set(chainSlug, head);
}

/** One answered HTTP request (lib/http/plain-route.ts logRequest). */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const m = metrics();
  m.httpRequests.inc({ method, route, status: String(status) });
  m.httpDuration.observe({ method, route }, seconds);
}

/** One webhook attempt: its HTTP status (null when it got none: refused, timed out, blocked) and duration. */
export function observeWebhookAttempt(statusCode: number | null, seconds: number): void {
  const outcome = statusCode === null ? "error" : `${Math.floor(statusCode / 100)}xx`;
  const m = metrics();
  m.attempts.inc({ outcome });
  m.attemptDuration.observe({ outcome }, seconds);
}

/** One event of the gateway's own transaction sending (lib/chains/tx-sender.ts). */
export function observeSentTransaction(chainSlug: string, event: "sent" | "replaced" | "rebroadcast" | "fee_waiting" | "still_pending"): void {
  metrics().sentTransactions.inc({ chain: chainSlug, event });
}

export type GaslessRelayOutcome =
  "mined" | "reverted" | "pending" | "failed" | "refused_not_worthwhile" | "refused_budget" | "refused_floor" | "refused_gas_price" | "refused_unpriced";

/** One gasless relay request's outcome (lib/gasless/relay.ts); a mined or reverted one adds its gas and cost to the spend counters. */
export function observeGaslessRelay(chainSlug: string, outcome: GaslessRelayOutcome, spent?: { gasUsed: bigint; costWei: bigint }): void {
  const m = metrics();
  m.gaslessRelays.inc({ chain: chainSlug, outcome });
  if (spent) {
    m.gaslessGasUsed.inc({ chain: chainSlug }, Number(spent.gasUsed));
    m.gaslessCostWei.inc({ chain: chainSlug }, Number(spent.costWei));
  }
}

/** The relayer's balance as just read, and its floor (lib/gasless/policy.ts). */
export function observeRelayerBalance(chainSlug: string, balanceWei: bigint, floorWei: bigint): void {
  const m = metrics();
  m.gaslessRelayerBalance.set({ chain: chainSlug }, Number(balanceWei));
  m.gaslessRelayerFloor.set({ chain: chainSlug }, Number(floorWei));
}
