import { z } from "zod";

/** Chain slugs with a per-chain RPC override (`RPC_URL_<SLUG>`, e.g. RPC_URL_BASE). */
const rpcOverrideSlugs = ["ETHEREUM", "BASE", "POLYGON", "ARBITRUM", "OPTIMISM"] as const;

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** live: real networks and sk_live_ keys; sandbox: devnet/testnets, sk_test_ keys, sandbox tools. */
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
  /** Trust X-Forwarded-For for the client address (set when behind a proxy you control). */
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  JOBS_DRIVER: z.enum(["local", "inngest", "none"]).default("local"),
  /**
   * Deposit-forwarder factories on live networks or public testnets, as JSON:
   * {"base":{"factory":"0x…","implementation":"0x…"}}. The sandbox devnet needs none.
   */
  DEPOSIT_FACTORIES: z
    .string()
    .default("{}")
    .transform((text, ctx) => {
      try {
        return z
          .record(z.string(), z.object({ factory: z.string().regex(/^0x[0-9a-fA-F]{40}$/), implementation: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }))
          .parse(JSON.parse(text)) as Record<string, { factory: `0x${string}`; implementation: `0x${string}` }>;
      } catch {
        ctx.addIssue({ code: "custom", message: 'must be JSON like {"base":{"factory":"0x…","implementation":"0x…"}}' });
        return z.NEVER;
      }
    }),
  ...Object.fromEntries(rpcOverrideSlugs.map((s) => [`RPC_URL_${s}`, z.string().url().optional()])),
});

export type Env = z.infer<typeof envSchema> & Partial<Record<`RPC_URL_${(typeof rpcOverrideSlugs)[number]}`, string>>;

function loadEnv(): Env {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data as Env;
}

/** The parsed environment. The only reader of process.env in the app. */
export const env: Env = loadEnv();

export const isSandbox = env.GATEWAY_MODE === "sandbox";
