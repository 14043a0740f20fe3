import { z } from "zod";

/** Chain slugs with a per-chain RPC override (`RPC_URL_<SLUG>`, e.g. RPC_URL_BASE). */
const rpcOverrideSlugs = ["ETHEREUM", "BASE", "POLYGON", "ARBITRUM", "OPTIMISM"] as const;

const positiveInt = z.coerce.number().int().positive();

const rpcUrlList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined || text.trim() === "") return undefined;
    const urls = text
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    for (const url of urls) {
      if (!/^(https?|wss?):\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
        ctx.addIssue({ code: "custom", message: "must be comma-separated http(s):// or ws(s):// URLs" });
        return z.NEVER;
      }
    }
    return urls;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** live: real networks and sk_live_ keys; sandbox: devnet/testnets, sk_test_ keys, sandbox tools. Required in production. */
  GATEWAY_MODE: z.enum(["live", "sandbox"]).default("sandbox"),
  /** PostgreSQL connection string; when unset the embedded PGlite under PGLITE_DIR is used. */
  DATABASE_URL: z.string().min(1).optional(),
  PGLITE_DIR: z.string().default(".data/pglite"),
  /** JWT signing secret. Required in production; generated once under .data/ in development. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** Public base URL, used for payment_url and webhook inbox URLs. */
  APP_URL: z.string().url().default("http://localhost:3000"),
  /** Requests per hour per merchant by plan (spec: standard 1000, premium 5000). */
  RATE_LIMIT_STANDARD_PER_HOUR: positiveInt.default(1000),
  RATE_LIMIT_PREMIUM_PER_HOUR: positiveInt.default(5000),
  /** Default for enterprise accounts without a per-account value. */
  RATE_LIMIT_ENTERPRISE_PER_HOUR: positiveInt.default(20000),
  /**
   * How many reverse proxies in front of the app append to X-Forwarded-For. 0/false (default): the
   * header is ignored and the client address is the TCP peer. N (true = 1): the N-th entry from the right.
   */
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v, ctx) => {
      const text = v.trim().toLowerCase();
      if (text === "false" || text === "") return 0;
      if (text === "true") return 1;
      if (/^\d{1,2}$/.test(text)) return Number(text);
      ctx.addIssue({ code: "custom", message: "must be false, true or the number of proxies in front of the app" });
      return z.NEVER;
    }),
  /** Shared sandbox devnet: blocks a merchant may mine per hour (sandbox mine tool and the public simulate). */
  SANDBOX_MINE_BLOCKS_PER_HOUR: positiveInt.default(2000),
  /** Shared sandbox devnet: faucet transfers (faucet, pay, simulate) per merchant per hour. */
  SANDBOX_FAUCET_SENDS_PER_HOUR: positiveInt.default(100),
  /**
   * The payment page's public simulate (anyone holding a pay URL): its own budgets per merchant per
   * hour, apart from the merchant's, so strangers cannot use up the merchant's sandbox tools.
   */
  /**
   * Payment links (public, anyone may create orders from one): most orders still pending at once
   * per link and per merchant (all links together); past it the link answers 429 until some are
   * paid or expire (issue 24).
   */
  LINK_OPEN_ORDERS_PER_LINK: positiveInt.default(50),
  LINK_OPEN_ORDERS_PER_MERCHANT: positiveInt.default(200),
  SANDBOX_PUBLIC_SENDS_PER_HOUR: positiveInt.default(30),
  SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR: positiveInt.default(600),
  /** Sweeper: most gas one deploy-and-flush may use; above it the sweep is skipped (gas griefing by a destination contract). */
  SWEEP_MAX_GAS: positiveInt.default(400_000),
  /** Sweeper, live networks: skip native sweeps worth less than this many times their gas cost (0: never). */
  SWEEP_MIN_VALUE_GAS_MULTIPLE: z.coerce.number().min(0).default(1),
  /** Sweeper, live networks: skip token sweeps below this many whole tokens (0: never). */
  SWEEP_MIN_TOKEN_UNITS: z.coerce.number().int().min(0).default(1),
  /** Sweeper, live networks: sweeps per merchant per hour (0: unlimited). */
  SWEEPS_PER_MERCHANT_PER_HOUR: z.coerce.number().int().min(0).default(60),
  /** Sweeper, DepositFactoryV2 orders: most deposits flushed in one transaction (issue 30). */
  SWEEP_BATCH_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * Sweeper, live networks: how long a due sweep may wait for its batch to fill before the batch is
   * sent as it is (0: send what is due at once). The sandbox devnet sends at once.
   */
  SWEEP_BATCH_MAX_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(900),
  /** Sweeper, live networks: no sweep is sent while the chain's gas price is above this (gwei; unset: no ceiling but MAX_FEE_GWEI_<SLUG>). */
  SWEEP_MAX_GAS_PRICE_GWEI: z.coerce.number().gt(0).optional(),
  /**
   * Ceiling on the EIP-1559 max fee (gwei) the gateway pays for its own transactions, per chain
   * (`MAX_FEE_GWEI_<SLUG>`); unset: the catalog's default for the chain. Above it a sweep waits.
   */
  ...Object.fromEntries(rpcOverrideSlugs.map((s) => [`MAX_FEE_GWEI_${s}`, z.coerce.number().positive().optional()])),
  /**
   * Gasless payments (EIP-3009 relays, lib/gasless): most gas the relayer spends for one merchant's
   * orders per hour, all chains together (0: no gasless payments). With the fee ceiling below, a
   * merchant's relays cost at most this × the ceiling per hour.
   */
  GASLESS_GAS_PER_MERCHANT_PER_HOUR: z.coerce.number().int().min(0).default(1_000_000),
  /**
   * Gasless payments: most gas the relayer spends per hour for all merchants together, all chains
   * (0: no gasless payments). New registrations each get a merchant budget; this one they share.
   */
  GASLESS_GAS_PER_HOUR: z.coerce.number().int().min(0).default(10_000_000),
  /** Gasless payments: refused while base fee + tip is above this many gwei (unset: the chain's MAX_FEE_GWEI ceiling; never above it). */
  GASLESS_MAX_FEE_GWEI: z.coerce.number().positive().optional(),
  /** Gasless payments: only for orders whose amount due is worth at least this many US dollars (0: no minimum). */
  GASLESS_MIN_ORDER_USD: z.coerce.number().min(0).default(1),
  /** Gasless payments: only while the relay's estimated cost (gas × base fee + tip × the native coin's price) is at most this share of the amount due. */
  GASLESS_MAX_COST_SHARE: z.coerce.number().gt(0).max(1).default(0.05),
  /**
   * Gasless payments, live networks and public testnets: the relayer's key (not the sweeper's; unset:
   * no gasless payments there). The sandbox devnet uses its own relayer account.
   */
  GASLESS_RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key")
    .optional(),
  /**
   * Gasless payments: the relayer keeps at least this much gas at the chain's fee ceiling
   * (MAX_FEE_GWEI_<SLUG>) after a relay, or refuses to relay: the floor that keeps it (and the sweeps,
   * when it is also the sweeper's key) funded.
   */
  GASLESS_RELAYER_MIN_BALANCE_GAS: z.coerce.number().int().min(0).default(2_000_000),
  /** A sweep transaction not mined after this many seconds is replaced (same nonce, higher fee). */
  TX_REPLACE_AFTER_SECONDS: z.coerce.number().positive().default(180),
  /**
   * Local job driver: the longest wait between retries of a failing background task (its backoff
   * starts at 1 s and doubles up to this). After an outage a task resumes within about this long.
   * Tests use a few seconds.
   */
  TASK_RETRY_MAX_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** PostgreSQL: seconds a new connection may take before the query fails (an outage answers 503 within this, never hangs). */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(5),
  /** PostgreSQL: statement_timeout of every pooled connection, in seconds (0: none). A wait on the database has a deadline. */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  /** Days a delivered (succeeded) webhook delivery, its payload and attempts are kept before retention deletes them (lib/retention). */
  WEBHOOK_PAYLOAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * GET /api/metrics: when set, a scrape must send `Authorization: Bearer <METRICS_TOKEN>`. Unset: open
   * in the sandbox (keep it off the public network), 404 in live mode.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * An optional screening provider (issue 56): each payer and refund destination not on the loaded
   * sanctions list is POSTed as {"address", "chain_id"} to this URL (with SCREENING_PROVIDER_TOKEN as a
   * bearer token), which answers {"sanctioned": boolean, "reason"?: string}. Unset: the list alone.
   */
  SCREENING_PROVIDER_URL: z.string().url().optional(),
  SCREENING_PROVIDER_TOKEN: z.string().min(1).optional(),
  /** How long the provider may take before its answer counts as a failure. */
  SCREENING_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** A provider failure (timeout, error, bad answer): open lets the address through, closed treats it as a match. */
  SCREENING_PROVIDER_FAILURE: z.enum(["open", "closed"]).default("closed"),
  /**
   * Where email goes (verification, password reset, security notices): an SMTP URL for nodemailer,
   * e.g. smtps://user:pass@smtp.example.com:465 (query parameters are nodemailer options). Unset: mail
   * only goes to the dashboard outbox. In the sandbox the outbox keeps a copy either way.
   */
  SMTP_URL: z
    .string()
    .optional()
    .transform((text) => (text?.trim() ? text.trim() : undefined))
    .refine((url) => url === undefined || (/^smtps?:\/\//.test(url) && URL.canParse(url)), "must be an smtp:// or smtps:// URL"),
  /** The From of every email the gateway sends. */
  MAIL_FROM: z.string().min(3).default("Payment Gateway <no-reply@localhost>"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  JOBS_DRIVER: z.enum(["local", "inngest", "none"]).default("local"),
  /** Sandbox: `start` the local hardhat devnet with the server, or leave it `off` (sandbox tools then answer 503). */
  DEVNET: z.enum(["start", "off"]).default("start"),
  /** Sandbox: an already running devnet to use instead of starting hardhat (e.g. http://127.0.0.1:8545). */
  DEVNET_RPC_URL: z.string().url().optional(),
  /** Sandbox: port for the hardhat devnet the app starts (a free one is picked when taken). */
  DEVNET_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
  /**
   * Sandbox: where the devnet the app started is recorded (pid, port, chain id, genesis hash). The
   * devnet outlives the server; the next server re-attaches to it when it is still the same chain.
   * Its log (stderr) goes next to it, with `.log` for `.json`.
   */
  DEVNET_STATE_FILE: z.string().min(1).default(".data/devnet.json"),
  /** WalletConnect Cloud project id: the payment page offers WalletConnect only when it is set. */
  WALLETCONNECT_PROJECT_ID: z.string().min(1).optional(),
  /** Live mode: key that pays gas to deploy-and-flush confirmed deposits. Unset: no sweeping (merchants flush themselves). */
  SWEEPER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key")
    .optional(),
  /**
   * Seconds to wait before each webhook retry, comma-separated; its length is the number of
   * retries. The default (~2.9 days over 10 retries) follows DESIGN › Webhooks; tests use short ones.
   */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .default("30,120,600,1800,3600,10800,21600,43200,86400,86400")
    .transform((text, ctx) => {
      const parts = text.split(",").map((part) => part.trim());
      const seconds = parts.map(Number);
      if (parts.some((part) => part === "") || seconds.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({ code: "custom", message: "must be a comma-separated list of non-negative numbers of seconds" });
        return z.NEVER;
      }
      return seconds;
    }),
  /**
   * Seconds a claimed webhook delivery stays leased beyond its one attempt's timeout
   * (WEBHOOK_ATTEMPT_TIMEOUT_SECONDS). A delivery whose worker died is sent again once the lease ends; a
   * shorter margin re-sends sooner after a crash, at the risk of a duplicate from a worker that is
   * merely slow (receivers de-duplicate on webhook-id). Tests use 1.
   */
  WEBHOOK_LEASE_MARGIN_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  /**
   * How long a receiver gets to answer one delivery attempt (DESIGN › Webhooks: 10 s). Tests use a
   * few seconds so a hanging receiver is cut sooner.
   */
  WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: z.coerce.number().gt(0).max(300).default(10),
  /**
   * Deposit-forwarder factories on live networks or public testnets, as JSON:
   * {"base":{"factory":"0x…","implementation":"0x…"}}. The sandbox devnet needs none. A
   * DepositFactoryV2 deployment (batched sweeps, issue 30) adds "version":2; without it an entry
   * is the first DepositFactory.
   */
  DEPOSIT_FACTORIES: z
    .string()
    .default("{}")
    .transform((text, ctx) => {
      try {
        return z
          .record(
            z.string(),
            z.object({
              factory: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
              implementation: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
              version: z.union([z.literal(1), z.literal(2)]).default(1),
            }),
          )
          .parse(JSON.parse(text)) as Record<string, { factory: `0x${string}`; implementation: `0x${string}`; version: 1 | 2 }>;
      } catch {
        ctx.addIssue({ code: "custom", message: 'must be JSON like {"base":{"factory":"0x…","implementation":"0x…"}}' });
        return z.NEVER;
      }
    }),
  /**
   * Chainlink price feeds (AggregatorV3Interface) per network for fiat-priced orders, as JSON:
   * {"base":{"ETH/USD":"0x…","USDC/USD":"0x…","EUR/USD":"0x…"}}. Ethereum mainnet's are built in;
   * the sandbox devnet deploys its own.
   */
  PRICE_FEEDS: z
    .string()
    .default("{}")
    .transform((text, ctx) => {
      try {
        return z
          .record(z.string(), z.record(z.string().regex(/^[A-Za-z0-9]+\/[A-Za-z]+$/), z.string().regex(/^0x[0-9a-fA-F]{40}$/)))
          .parse(JSON.parse(text)) as Record<string, Record<string, `0x${string}`>>;
      } catch {
        ctx.addIssue({ code: "custom", message: 'must be JSON like {"base":{"ETH/USD":"0x…"}}' });
        return z.NEVER;
      }
    }),
  /** Live networks and public testnets: most requests the gateway sends one RPC provider per second (it never provokes the provider's own limit). */
  RPC_PROVIDER_REQUESTS_PER_SECOND: positiveInt.default(25),
  /** Refuse a price feed answer older than this many seconds (unset: each feed's heartbeat plus a margin). */
  PRICE_FEED_MAX_AGE_SECONDS: z.coerce.number().int().positive().optional(),
  ...Object.fromEntries(rpcOverrideSlugs.map((s) => [`RPC_URL_${s}`, z.string().url().optional()])),
  /**
   * Several RPC providers per chain (`RPC_URLS_<SLUG>`, comma-separated http(s):// and ws(s):// URLs):
   * calls fail over between them and the scanner trusts the head two of them agree on. Takes
   * precedence over RPC_URL_<SLUG>.
   */
  ...Object.fromEntries(rpcOverrideSlugs.map((s) => [`RPC_URLS_${s}`, rpcUrlList])),
  /** WebSocket endpoint per chain (`RPC_WS_URL_<SLUG>`): newHeads wakes the scanner at once instead of waiting for the next poll. */
  ...Object.fromEntries(rpcOverrideSlugs.map((s) => [`RPC_WS_URL_${s}`, z.string().url().optional()])),
});

export type Env = z.infer<typeof envSchema> &
  Partial<Record<`RPC_URL_${(typeof rpcOverrideSlugs)[number]}` | `RPC_WS_URL_${(typeof rpcOverrideSlugs)[number]}`, string>> &
  Partial<Record<`RPC_URLS_${(typeof rpcOverrideSlugs)[number]}`, string[]>>;

function loadEnv(): Env {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data as Env;
}

/** `MAX_FEE_GWEI_<SLUG>` for a chain slug (undefined: the catalog's default). */
export function maxFeeGweiOverride(slug: string): number | undefined {
  return (env as unknown as Record<string, number | undefined>)[`MAX_FEE_GWEI_${slug.toUpperCase()}`];
}

/** The parsed environment. The only reader of process.env in the app. */
export const env: Env = loadEnv();

export const isSandbox = env.GATEWAY_MODE === "sandbox";

/** Whether GATEWAY_MODE was set at all: production refuses to start on the silent default (lib/server-start.ts). */
export const gatewayModeExplicit = (process.env.GATEWAY_MODE ?? "").trim() !== "";
