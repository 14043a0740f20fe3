import "server-only";
import { env } from "@/lib/env";
import { getDatabase } from "@/lib/db/client";
import { describeError, log } from "@/lib/log";

/** Startup for `next start` / `next dev`: refuse an unsafe production config, migrate the database. */
export async function startServer(): Promise<void> {
  if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
    log.error("AUTH_SECRET is not set: refusing to start in production (set it to 32+ random characters).");
    process.exit(1);
  }
  try {
    const database = await getDatabase();
    log.info("database ready", { driver: database.driver });
  } catch (error) {
    log.error("database failed to open or migrate", describeError(error));
    process.exit(1);
  }
}
