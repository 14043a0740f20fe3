import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The Prometheus metrics of this process (GET /api/metrics), on one prom-client registry for the
 * process (lib/process-singleton.ts): Next loads modules more than once, and a second registry
 * would split the counters.
 * A leaf below every domain: the domains record what happens through lib/metrics/record.ts as it
 * happens (requests, webhook attempts, sent transactions, relays); the rest is read at scrape time
 * (lib/health/render-metrics.ts).
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "gateway_process_" });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "gateway_http_requests_total",
      help: "HTTP requests answered, by route pattern and status.",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route pattern.",
      labelNames: ["method", "route"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    chainHead: new Gauge({
      name: "gateway_chain_head_block",
      help: "The chain's head as this instance's watcher last saw it.",
      labelNames: ["chain"],
      registers,
    }),
    chainScanned: new Gauge({
      name: "gateway_chain_scanned_block",
      help: "The last block fully scanned (the stored cursor).",
      labelNames: ["chain"],
      registers,
    }),
    chainLag: new Gauge({
      name: "gateway_chain_lag_blocks",
      help: "Head minus scanned cursor: blocks the scanner is behind.",
      labelNames: ["chain"],
      registers,
    }),
    chainTickAge: new Gauge({
      name: "gateway_chain_last_tick_age_seconds",
      help: "Seconds since the chain's watcher last completed a tick in this instance.",
      labelNames: ["chain"],
      registers,
    }),
    providerRequests: new Gauge({
      name: "gateway_rpc_provider_requests",
      help: "JSON-RPC calls sent to the provider since this process started.",
      labelNames: ["chain", "provider"],
      registers,
    }),
    providerRateLimited: new Gauge({
      name: "gateway_rpc_provider_rate_limited",
      help: "Calls the provider answered 429 (or a rate-limit error) since start.",
      labelNames: ["chain", "provider"],
      registers,
    }),
    providerErrorRate: new Gauge({
      name: "gateway_rpc_provider_error_rate",
      help: "Share of the provider's last 100 calls that failed, were limited or timed out (0..1).",
      labelNames: ["chain", "provider"],
      registers,
    }),
    providerLatency: new Gauge({
      name: "gateway_rpc_provider_latency_seconds",
      help: "Smoothed latency of the provider's successful calls.",
      labelNames: ["chain", "provider"],
      registers,
    }),
    providerHeadLag: new Gauge({
      name: "gateway_rpc_provider_head_lag_blocks",
      help: "Blocks the provider's head is behind the highest head any provider of the chain showed.",
      labelNames: ["chain", "provider"],
      registers,
    }),
    providerSetAside: new Gauge({
      name: "gateway_rpc_provider_set_aside",
      help: "1 while the provider is put aside (rate limited, failing or lagging), else 0.",
      labelNames: ["chain", "provider"],
      registers,
    }),
    deliveriesDue: new Gauge({ name: "gateway_webhook_deliveries_due", help: "Webhook deliveries due now and not yet sent.", registers }),
    oldestDueAge: new Gauge({
      name: "gateway_webhook_oldest_due_age_seconds",
      help: "How long the oldest due webhook delivery has been waiting (0: none).",
      registers,
    }),
    attemptDuration: new Histogram({
      name: "gateway_webhook_attempt_duration_seconds",
      help: "Duration of webhook delivery attempts, by outcome.",
      labelNames: ["outcome"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    attempts: new Counter({
      name: "gateway_webhook_attempts_total",
      help: "Webhook delivery attempts by outcome (2xx, 3xx, 4xx, 5xx, error).",
      labelNames: ["outcome"],
      registers,
    }),
    sentTransactions: new Counter({
      name: "gateway_sent_transactions_total",
      help: "The gateway's own transactions on live networks, by event: sent, replaced (same nonce, higher fee), rebroadcast (the node forgot it), fee_waiting (the fee is above the chain's ceiling: not sent), still_pending (not mined within the wait).",
      labelNames: ["chain", "event"],
      registers,
    }),
    sentInFlight: new Gauge({
      name: "gateway_sent_transactions_in_flight",
      help: "The gateway's own transactions sent and not yet mined, by EVM chain id.",
      labelNames: ["chain_id"],
      registers,
    }),
    sentOldestInFlightAge: new Gauge({
      name: "gateway_sent_transactions_oldest_in_flight_age_seconds",
      help: "Age of the oldest nonce still in flight (from its first send), by EVM chain id: a stuck transaction shows here.",
      labelNames: ["chain_id"],
      registers,
    }),
    gaslessRelays: new Counter({
      name: "gateway_gasless_relays_total",
      help: "Gasless relay requests by outcome: mined, reverted, pending (sent, not mined within the wait), failed (not sent), refused_not_worthwhile, refused_budget, refused_floor (the relayer at its balance floor), refused_gas_price, refused_unpriced (no native price feed).",
      labelNames: ["chain", "outcome"],
      registers,
    }),
    gaslessGasUsed: new Counter({
      name: "gateway_gasless_relay_gas_used_total",
      help: "Gas the relayer spent on mined gasless relays (this instance's sends).",
      labelNames: ["chain"],
      registers,
    }),
    gaslessCostWei: new Counter({
      name: "gateway_gasless_relay_cost_wei_total",
      help: "Native coin (wei) the relayer spent on mined gasless relays (this instance's sends).",
      labelNames: ["chain"],
      registers,
    }),
    gaslessRelayerBalance: new Gauge({
      name: "gateway_gasless_relayer_balance_wei",
      help: "The relayer's native balance when last read (each relay, and the payment page's offer at most every few seconds).",
      labelNames: ["chain"],
      registers,
    }),
    gaslessRelayerFloor: new Gauge({
      name: "gateway_gasless_relayer_min_balance_wei",
      help: "The relayer's floor: below it plus a relay's most cost, relays are refused.",
      labelNames: ["chain"],
      registers,
    }),
    gaslessGasLastHour: new Gauge({
      name: "gateway_gasless_gas_last_hour",
      help: "Gas counted against the global hourly relay budget now (gas used, or the limit of relays in flight; all merchants and chains).",
      registers,
    }),
    gaslessBudgetUsed: new Gauge({
      name: "gateway_gasless_budget_used_ratio",
      help: "Share of GASLESS_GAS_PER_HOUR used over the last hour (0..1; 0 when gasless payments are off).",
      registers,
    }),
    sweeps: new Gauge({
      name: "gateway_sweeps",
      help: "Sweeps by status: pending and submitted (to do), failed (given up).",
      labelNames: ["status"],
      registers,
    }),
    databaseUp: new Gauge({ name: "gateway_database_up", help: "1 when this scrape could read the database, else 0.", registers }),
    taskErrors: new Gauge({
      name: "gateway_task_consecutive_errors",
      help: "Failed runs in a row of a background task (0: its last run succeeded).",
      labelNames: ["task"],
      registers,
    }),
    taskSuccessAge: new Gauge({
      name: "gateway_task_last_success_age_seconds",
      help: "Seconds since the task's last good run (since its start when it has had none).",
      labelNames: ["task"],
      registers,
    }),
    taskOverdue: new Gauge({
      name: "gateway_task_overdue",
      help: "1 when the task has not completed a tick within the sleep it announced plus the grace (readiness fails).",
      labelNames: ["task"],
      registers,
    }),
    taskTickDuration: new Gauge({ name: "gateway_task_last_tick_duration_seconds", help: "Duration of the task's last run.", labelNames: ["task"], registers }),
    taskRestarts: new Gauge({
      name: "gateway_task_restarts",
      help: "Runs abandoned at their deadline and loops restarted after a crash, since start.",
      labelNames: ["task"],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function metrics(): Metrics {
  return processSingleton("metrics", createMetrics);
}

/** The newest head each chain's watcher saw in this process. */
export const chainHeads = processSingleton("chainHeads", () => new Map<string, bigint>());
