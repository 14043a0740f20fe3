import { createTransport, http, webSocket, HttpRequestError, RpcRequestError, TimeoutError, type PublicClient, type Transport } from "viem";
import { processSingleton } from "@/lib/process-singleton";
import { isLogRangeRefusal } from "./log-range";

/** How the pool treats its providers; every figure has a default fit for public RPC providers. */
export interface ProviderPoolOptions {
  /** Most requests sent to one provider per second (token bucket, bursts up to this many); Infinity: no budget. */
  requestsPerSecond?: number;
  /** One request's timeout. */
  timeoutMs?: number;
  /** First put-aside after a failure (or a 429 without Retry-After); doubles with each failure in a row, with ±25 % jitter. */
  cooldownMs?: number;
  maxCooldownMs?: number;
  /** Blocks a provider's head may be behind the trusted head before it is put aside as lagging. */
  maxHeadLag?: number;
  /** Attempts of one request over all providers before its error is thrown. */
  maxAttempts?: number;
  /** Longest one request waits for a provider to come back from its put-aside (or for budget). */
  maxWaitMs?: number;
  /** JSON-RPC batching of concurrent calls to one HTTP provider (one HTTP request for many calls). */
  batch?: boolean;
  /**
   * Share each provider host's request budget with every other pool of the process that has
   * `shareHosts` (the gateway's chains: several chains behind one provider account or proxy are one
   * rate limit to respect). Off by default: pools of tests stay apart.
   */
  shareHosts?: boolean;
}

/** What the dashboard and the metrics show of one provider (never its URL: keys live in paths and queries). */
export interface ProviderHealth {
  label: string;
  calls: number;
  errors: number;
  rateLimited: number;
  /** Errors among the last 100 outcomes (0..1). */
  errorRate: number;
  /** Smoothed latency of successful calls, ms (null: none yet). */
  latencyMs: number | null;
  head: bigint | null;
  /** The highest head any provider showed minus this provider's (null: unknown). */
  headLag: number | null;
  /** Put aside until this time (ms since epoch), or null when in use. */
  asideUntil: number | null;
  asideReason: string | null;
}

type RequestFn = (args: { method: string; params?: unknown }) => Promise<unknown>;

const outcomeWindow = 100;

/**
 * A provider host's request budget (a token bucket): one per provider, or one per host shared by
 * every pool that shares hosts (lib/chains/clients.ts), since a host's rate limit counts every
 * request sent to it, whichever chain sent it.
 */
class Budget {
  private tokens: number;
  private refilledAt = Date.now();

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  /** Takes one request from the budget; the ms to wait when there is none. */
  take(now: number): number {
    if (!Number.isFinite(this.perSecond)) return 0;
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}

// Process-wide (Next loads modules more than once): the budgets of shared hosts, by host and rate.
const sharedBudgets = processSingleton("providerBudgets", () => new Map<string, Budget>());

function budgetFor(url: string, perSecond: number, share: boolean): Budget {
  if (!share) return new Budget(perSecond);
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return new Budget(perSecond);
  }
  const key = `${host}|${perSecond}`;
  let budget = sharedBudgets.get(key);
  if (!budget) sharedBudgets.set(key, (budget = new Budget(perSecond)));
  return budget;
}

class Provider {
  calls = 0;
  errors = 0;
  rateLimited = 0;
  latencyMs: number | null = null;
  head: bigint | null = null;
  asideUntil = 0;
  asideReason: string | null = null;
  /** Failures (not 429s with Retry-After, which say how long to wait) in a row: the cool-down doubles with each. */
  failuresInRow = 0;
  /** Back from a put-aside: the next call goes to it, to learn whether it recovered. */
  probeDue = false;
  private outcomes: boolean[] = [];

  constructor(
    readonly label: string,
    readonly send: RequestFn,
    readonly budget: Budget,
  ) {}

  record(ok: boolean) {
    this.outcomes.push(ok);
    if (this.outcomes.length > outcomeWindow) this.outcomes.shift();
  }

  errorRate(): number {
    return this.outcomes.length === 0 ? 0 : this.outcomes.filter((ok) => !ok).length / this.outcomes.length;
  }
}

/** Seconds or an HTTP date from a Retry-After header, in ms (null: absent or unreadable). */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function errorText(error: unknown): string {
  const e = error as { details?: string; shortMessage?: string; message?: string };
  return `${e?.details ?? ""} ${e?.shortMessage ?? ""} ${e?.message ?? String(error)}`.toLowerCase();
}

function findCause<T>(error: unknown, kind: abstract new (...args: never[]) => T): T | null {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (e instanceof kind) return e as T;
  }
  return null;
}

type Verdict = { kind: "answer" } | { kind: "limited"; waitMs: number | null } | { kind: "failed" };

/**
 * Whether an error is the provider's (try another, put it aside) or the request's own answer
 * (a revert, bad params, a log range to split: thrown to the caller as is).
 */
function judge(error: unknown, method: string): Verdict {
  const httpError = findCause(error, HttpRequestError);
  const text = errorText(error);
  if (httpError?.status === 429 || /\b429\b|too many requests|rate limit|exceeded .*capacity|request limit/.test(text)) {
    return { kind: "limited", waitMs: retryAfterMs(httpError?.headers?.get("retry-after")) };
  }
  if (method === "eth_getLogs" && isLogRangeRefusal(error)) return { kind: "answer" };
  if (httpError || findCause(error, TimeoutError)) return { kind: "failed" };
  const rpcError = findCause(error, RpcRequestError);
  // Internal error, server busy, header not found (a provider behind), resource unavailable.
  if (
    rpcError &&
    [-32603, -32000, -32002, -32005].includes(rpcError.code) &&
    !/revert|exception|nonce|insufficient|already known|underpriced|invalid/.test(text)
  ) {
    return { kind: "failed" };
  }
  if (!rpcError && !(error as { code?: unknown })?.code) return { kind: "failed" }; // socket closed, fetch failed
  return { kind: "answer" };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A provider's display name: its host, never the path or query (where providers put API keys). */
export function providerLabel(url: string, index: number): string {
  try {
    return `${index + 1}:${new URL(url).host}`;
  } catch {
    return `${index + 1}:provider`;
  }
}

function blockNumberParam(value: unknown): bigint | null {
  return typeof value === "string" && value.startsWith("0x") ? BigInt(value) : null;
}

/** Which provider answered a call, and what it answered (`answeredBy` to ask another one next). */
export interface PooledAnswer {
  result: unknown;
  provider: string;
}

/**
 * Several RPC providers behind one viem transport. Each call goes to a provider in use, drawn by
 * health (fewer recent errors, lower latency), within its request budget; a provider that answers
 * 429, fails, times out or lags is put aside (for its Retry-After, else a cool-down that doubles
 * with jitter) and the call moves to the next one. While every provider is aside (always so with
 * a single one), a call waits for the first to come back, up to `maxWaitMs`: "aside" means "wait",
 * never "fail at once". eth_blockNumber answers the head at least two providers have reached (the
 * one provider's when only one answers). Block reads above a provider's known head go elsewhere; a
 * block at or below the trusted head that a provider does not know is asked of another.
 * `requestElsewhere` sends a call to a provider other than one named (a second opinion).
 */
export function createProviderPool(urls: string[], options: ProviderPoolOptions = {}) {
  if (urls.length === 0) throw new Error("a provider pool needs at least one RPC URL");
  const timeout = options.timeoutMs ?? 10_000;
  const cooldownMs = options.cooldownMs ?? 2_000;
  const maxCooldownMs = options.maxCooldownMs ?? 60_000;
  const maxHeadLag = options.maxHeadLag ?? 5;
  const maxWaitMs = options.maxWaitMs ?? 15_000;
  const budget = options.requestsPerSecond ?? Infinity;
  const providers = urls.map((url, i) => {
    const transport = /^wss?:/.test(url)
      ? webSocket(url, { retryCount: 0, timeout })
      : http(url, { retryCount: 0, timeout, batch: options.batch ? { batchSize: 50 } : false });
    const { request } = transport({ chain: undefined, retryCount: 0, timeout });
    return new Provider(providerLabel(url, i), request as RequestFn, budgetFor(url, budget, options.shareHosts ?? false));
  });
  const maxAttempts = options.maxAttempts ?? Math.max(8, providers.length * 3);
  let trustedHead: bigint | null = null;
  /** The highest head any provider showed in the last round: lag is measured from it. */
  let bestHead: bigint | null = null;

  /** Sets a provider aside: for its Retry-After when it gave one, else a cool-down doubling with each failure in a row. */
  function putAside(provider: Provider, reason: string, retryAfter: number | null) {
    // Concurrent calls (a batch) failing together are one failure, not a streak.
    if (!inUse(provider, Date.now())) return;
    const jitter = 0.75 + Math.random() * 0.5;
    let wait: number;
    if (retryAfter !== null) {
      // The provider said how long: that, and a little more so concurrent callers do not return in one burst.
      wait = retryAfter * (1 + (jitter - 0.75) / 2);
    } else {
      provider.failuresInRow += 1;
      wait = Math.min(maxCooldownMs, cooldownMs * 2 ** (provider.failuresInRow - 1)) * jitter;
    }
    provider.asideUntil = Date.now() + wait;
    provider.asideReason = reason;
    provider.probeDue = true;
  }

  function inUse(provider: Provider, now: number) {
    return provider.asideUntil <= now;
  }

  /**
   * The provider for the next call: one just back from a put-aside first (its probe), else a draw
   * weighted by health (fewer recent errors, lower latency), so load is spread and a recovered
   * provider earns its share back.
   */
  function choose(candidates: Provider[]): Provider | undefined {
    const probe = candidates.find((p) => p.probeDue);
    if (probe) {
      probe.probeDue = false;
      return probe;
    }
    const weights = candidates.map((p) => ((1 - p.errorRate()) ** 2 + 0.02) / ((p.latencyMs ?? 50) + 20));
    let draw = Math.random() * weights.reduce((sum, w) => sum + w, 0);
    for (let i = 0; i < candidates.length; i++) {
      draw -= weights[i]!;
      if (draw <= 0) return candidates[i];
    }
    return candidates.at(-1);
  }

  /** Sends one call to one provider, keeping its figures; throws what the provider threw. */
  async function sendTo(provider: Provider, args: { method: string; params?: unknown }) {
    for (;;) {
      const wait = provider.budget.take(Date.now());
      if (wait === 0) break;
      await sleep(wait);
    }
    provider.calls += 1;
    const started = performance.now();
    try {
      const result = await provider.send(args);
      const elapsed = performance.now() - started;
      provider.latencyMs = provider.latencyMs === null ? elapsed : provider.latencyMs * 0.8 + elapsed * 0.2;
      provider.record(true);
      provider.failuresInRow = 0;
      provider.probeDue = false;
      if (provider.asideReason && inUse(provider, Date.now())) provider.asideReason = null;
      return result;
    } catch (error) {
      const verdict = judge(error, args.method);
      if (verdict.kind === "answer") {
        provider.record(true);
      } else {
        provider.record(false);
        provider.errors += 1;
        if (verdict.kind === "limited") {
          provider.rateLimited += 1;
          putAside(provider, "rate limited", verdict.waitMs);
        } else {
          putAside(provider, "failing", null);
        }
      }
      throw Object.assign(error as object, { providerVerdict: verdict.kind });
    }
  }

  /** Whether a provider can serve a read that needs this block (its known head is not below it). */
  function knows(provider: Provider, block: bigint | null) {
    return block === null || provider.head === null || provider.head >= block;
  }

  function neededBlock(method: string, params: unknown[]): bigint | null {
    if (method === "eth_getBlockByNumber") return blockNumberParam(params[0]);
    if (method === "eth_getLogs") return blockNumberParam((params[0] as { toBlock?: unknown })?.toBlock);
    return null;
  }

  async function request(args: { method: string; params?: unknown }): Promise<unknown> {
    return args.method === "eth_blockNumber" ? agreedHead() : (await failover(args)).result;
  }

  /**
   * One call, moved from provider to provider until one answers (or the call's own error comes
   * back); providers in `excluded` are never asked. While none may be asked (all aside), the call
   * waits for the first to come back, up to `maxWaitMs` in all: waiting is no attempt.
   */
  async function failover(
    args: { method: string; params?: unknown },
    excluded: ReadonlySet<Provider> = new Set(),
    waitMs = maxWaitMs,
  ): Promise<{ result: unknown; provider: Provider }> {
    const params = (args.params as unknown[]) ?? [];
    const needed = neededBlock(args.method, params);
    const tried = new Set<Provider>();
    const eligible = providers.filter((p) => !excluded.has(p));
    const deadline = Date.now() + waitMs;
    let lastError: unknown = null;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const now = Date.now();
      const available = eligible.filter((p) => inUse(p, now));
      const fresh = available.filter((p) => !tried.has(p));
      // Prefer providers not tried yet for this call and known to hold the block it reads.
      const pool = fresh.length ? fresh : available;
      const knowing = pool.filter((p) => knows(p, needed));
      const chosen = choose(knowing.length ? knowing : pool);
      if (!chosen) {
        const soonest = Math.min(...eligible.map((p) => p.asideUntil));
        if (soonest > deadline) break;
        await sleep(Math.max(10, soonest - now));
        attempt -= 1; // waiting is no attempt: the deadline bounds it
        continue;
      }
      tried.add(chosen);
      try {
        const result = await sendTo(chosen, args);
        // A block at or below the trusted head that this provider does not know: it lags; ask another.
        if (result === null && needed !== null && args.method === "eth_getBlockByNumber" && trustedHead !== null && needed <= trustedHead) {
          const others = eligible.filter((p) => !tried.has(p) && inUse(p, Date.now()));
          if (others.length) {
            putAside(chosen, "lagging", null);
            continue;
          }
        }
        return { result, provider: chosen };
      } catch (error) {
        lastError = error;
        if ((error as { providerVerdict?: string }).providerVerdict === "answer") throw error;
        // A provider that only asked to wait (429 with Retry-After) is waited for, however often it asks, within the deadline.
        if ((error as { providerVerdict?: string }).providerVerdict === "limited" && Date.now() < deadline) attempt -= 1;
      }
    }
    throw lastError ?? new Error(`no RPC provider answered ${args.method} within ${waitMs} ms`);
  }

  /** The head at least two providers have reached; each provider's own head is kept for routing and lag. */
  async function agreedHead(): Promise<string> {
    const now = Date.now();
    const asked = providers.filter((p) => inUse(p, now));
    const answers = await Promise.allSettled(
      asked.map(async (p) => ({ provider: p, head: BigInt((await sendTo(p, { method: "eth_blockNumber" })) as string) })),
    );
    const heads: { provider: Provider; head: bigint }[] = [];
    for (const answer of answers) if (answer.status === "fulfilled") heads.push(answer.value);
    for (const { provider, head } of heads) provider.head = head;
    if (heads.length === 0) {
      // Every provider is aside or failed just now: the failover path waits for the first back.
      const { result, provider } = await failover({ method: "eth_blockNumber" });
      const head = BigInt(result as string);
      provider.head = head;
      trustedHead = bestHead = head;
      return `0x${head.toString(16)}`;
    }
    const sorted = heads.map((h) => h.head).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
    const agreed = sorted.length >= 2 ? sorted[1]! : sorted[0]!;
    trustedHead = agreed;
    bestHead = sorted[0]!;
    for (const { provider, head } of heads) {
      if (bestHead - head > BigInt(maxHeadLag)) putAside(provider, "lagging", null);
    }
    return `0x${agreed.toString(16)}`;
  }

  const pool = {
    request,
    /** How many providers the pool has (a second opinion needs two). */
    size: providers.length,
    /** One call, with the label of the provider that answered it. */
    async requestWithProvider(args: { method: string; params?: unknown }): Promise<PooledAnswer> {
      const { result, provider } = await failover(args);
      return { result, provider: provider.label };
    },
    /**
     * One call to any provider but `provider` (a second opinion on what that one answered). Throws
     * when there is no other (a single provider), or none answers within `waitMs` (default: the
     * pool's wait for a provider aside to come back).
     */
    async requestElsewhere(args: { method: string; params?: unknown }, provider: string, waitMs = maxWaitMs): Promise<PooledAnswer> {
      const excluded = new Set(providers.filter((p) => p.label === provider));
      if (excluded.size === providers.length) throw new Error("no other RPC provider to ask");
      const answer = await failover(args, excluded, waitMs);
      return { result: answer.result, provider: answer.provider.label };
    },
    health(): ProviderHealth[] {
      const now = Date.now();
      return providers.map((p) => ({
        label: p.label,
        calls: p.calls,
        errors: p.errors,
        rateLimited: p.rateLimited,
        errorRate: p.errorRate(),
        latencyMs: p.latencyMs,
        head: p.head,
        headLag: p.head !== null && bestHead !== null ? Math.max(0, Number(bestHead - p.head)) : null,
        asideUntil: inUse(p, now) ? null : p.asideUntil,
        asideReason: inUse(p, now) ? null : p.asideReason,
      }));
    },
  };

  // Retries are the pool's own (across providers); viem's would repeat them on top. The pool rides
  // along as the transport's value, so code holding only the client can ask for a second opinion.
  const transport: Transport = () =>
    createTransport(
      {
        key: "providerPool",
        name: "Provider pool",
        request: (({ method, params }: { method: string; params?: unknown }) => request({ method, params })) as never,
        retryCount: 0,
        type: "providerPool",
      },
      { pool },
    );

  return { ...pool, transport };
}

export type ProviderPool = ReturnType<typeof createProviderPool>;

/** The provider pool behind a client (null: a client on some other transport, e.g. a test's plain http: one provider). */
export function poolOf(client: PublicClient): Omit<ProviderPool, "transport"> | null {
  return (client.transport as { pool?: Omit<ProviderPool, "transport"> }).pool ?? null;
}
