import "server-only";
import { env, gatewayModeExplicit } from "@/lib/env";
import { getDatabase } from "@/lib/db/client";
import { describeError, log } from "@/lib/log";

/** Startup for `next start` / `next dev`: refuse an unsafe production config, migrate the database, start the jobs. */
export async function startServer(): Promise<void> {
  if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
    log.error("AUTH_SECRET is not set: refusing to start in production (set it to 32+ random characters).");
    process.exit(1);
  }
  if (env.NODE_ENV === "production" && !gatewayModeExplicit) {
    log.error("GATEWAY_MODE is not set: refusing to start in production. Set GATEWAY_MODE=live for real networks or GATEWAY_MODE=sandbox for a sandbox.");
    process.exit(1);
  }
  if (env.GATEWAY_MODE === "live") {
    const { sharedSecretReason } = await import("@/lib/auth/secret");
    const reason = sharedSecretReason();
    if (reason) {
      log.error(`${reason} Refusing to start in live mode: sandbox and live need different AUTH_SECRETs.`);
      process.exit(1);
    }
    if (!env.METRICS_TOKEN) log.warn("METRICS_TOKEN is not set: GET /api/metrics answers 404 in live mode until it is.");
    if (env.GASLESS_RELAYER_PRIVATE_KEY && env.GASLESS_RELAYER_PRIVATE_KEY.toLowerCase() === env.SWEEPER_PRIVATE_KEY?.toLowerCase()) {
      log.warn("GASLESS_RELAYER_PRIVATE_KEY is the sweeper's key: only GASLESS_RELAYER_MIN_BALANCE_GAS keeps gasless relays from spending the sweeps' gas.");
    }
  }
  // The client address is the socket's unless TRUST_PROXY says which X-Forwarded-For hop to use.
  const { capturePeerAddresses } = await import("@/lib/http/client-address");
  await capturePeerAddresses();
  try {
    const database = await getDatabase();
    log.info("database ready", { driver: database.driver });
  } catch (error) {
    log.error("database failed to open or migrate", describeError(error));
    process.exit(1);
  }
  // Sandbox: the local devnet every sandbox chain runs on, before the jobs that scan it.
  if (env.DEVNET === "start") {
    const { needsDevnet, startSandboxDevnet } = await import("@/lib/chains/sandbox-devnet");
    if (needsDevnet()) {
      await startSandboxDevnet().catch((error) => log.error("sandbox devnet failed to start; sandbox tools will answer 503", describeError(error)));
    }
  }
  // Background jobs (webhook delivery, chain scanning, sweeps, …): the in-process driver when
  // JOBS_DRIVER=local; under Inngest only what a kick does.
  if (env.JOBS_DRIVER !== "none") {
    const { startJobs } = await import("@/lib/engine/start");
    await startJobs();
  }
}
