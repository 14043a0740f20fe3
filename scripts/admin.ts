/**
 * Operator commands (run: npm run admin -- <command>). Uses the same database as the server:
 * DATABASE_URL (PostgreSQL) or else the embedded PGlite in PGLITE_DIR (stop the server first:
 * PGlite serves one process at a time).
 *
 *   show <username>
 *   set-plan <username> <standard|premium|enterprise> [--rate-limit N]
 */
import { AdminError, setMerchantPlan, showMerchantPlan, type MerchantPlan } from "@/lib/auth/set-plan";
import { plans } from "@/lib/auth/rate-limit";
import { getDatabase } from "@/lib/db/client";

const usage = `usage: npm run admin -- show <username>
       npm run admin -- set-plan <username> <${plans.join("|")}> [--rate-limit N]`;

function print(result: MerchantPlan): void {
  const own = result.rateLimitPerHour === null ? "plan default" : "own value";
  console.log(`${result.username} (id ${result.id}): plan ${result.plan}, ${result.effectiveLimitPerHour} requests per hour (${own})`);
}

async function run(args: string[]): Promise<void> {
  const [command, username, plan, ...rest] = args;
  if (command === "show" && username && plan === undefined) {
    const database = await getDatabase();
    try {
      print(await showMerchantPlan(database.db, username));
    } finally {
      await database.close();
    }
    return;
  }
  if (command === "set-plan" && username && plan) {
    let rateLimit: number | null = null;
    for (let i = 0; i < rest.length; i++) {
      const flag = rest[i]!;
      const value = flag.startsWith("--rate-limit=") ? flag.slice("--rate-limit=".length) : flag === "--rate-limit" ? rest[++i] : undefined;
      if (value === undefined || !/^\d+$/.test(value)) throw new AdminError(`Unexpected argument '${flag}'${flag === "--rate-limit" ? " (needs a whole number)" : ""}.\n${usage}`);
      rateLimit = Number(value);
    }
    const database = await getDatabase();
    try {
      print(await setMerchantPlan(database.db, username, plan, rateLimit));
    } finally {
      await database.close();
    }
    return;
  }
  throw new AdminError(usage);
}

run(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof AdminError ? error.message : error);
  process.exit(1);
});
