import "server-only";
import { env } from "@/lib/env";
import { registerKicker } from "@/lib/jobs/kick";
import { ensureLocalDriver } from "@/lib/jobs/start";
import { registeredTasks } from "./registry";
import { kickOnNewHeads } from "./tasks";

/**
 * Server start: the local driver runs every registered task in-process and new chain heads kick
 * the chain's watcher; under Inngest, which calls /api/inngest, kicks hand due deliveries over;
 * `none` runs nothing.
 */
export async function startJobs(): Promise<void> {
  if (env.JOBS_DRIVER === "local") {
    await ensureLocalDriver(registeredTasks);
    kickOnNewHeads();
  } else if (env.JOBS_DRIVER === "inngest") {
    const { inngestKicker } = await import("./inngest/dispatch");
    registerKicker(inngestKicker());
  }
}
