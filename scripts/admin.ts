/**
 * Operator commands (run: npm run admin -- <command>). Uses the same database as the server:
 * DATABASE_URL (PostgreSQL) or else the embedded PGlite in PGLITE_DIR (stop the server first:
 * PGlite serves one process at a time).
 *
 *   show <username>
 *   set-plan <username> <standard|premium|enterprise> [--rate-limit N]
 *   screening:load <SDN.XML>   (the US Treasury's SDN list, downloaded by the operator)
 *   screening:status
 */
import { AdminError, setMerchantPlan, showMerchantPlan, type MerchantPlan } from "@/lib/auth/set-plan";
import { plans } from "@/lib/auth/rate-limit";
import { readFile } from "node:fs/promises";
import { getDatabase } from "@/lib/db/client";
import { loadSanctionsList } from "@/lib/screening/load-list";
import { findLatestListLoad } from "@/lib/screening/queries";
import { SanctionsListFormatError } from "@/lib/screening/sdn-list";

const usage = `usage: npm run admin -- show <username>
       npm run admin -- set-plan <username> <${plans.join("|")}> [--rate-limit N]
       npm run admin -- screening:load <path to SDN.XML>
       npm run admin -- screening:status`;

function print(result: MerchantPlan): void {
  const own = result.rateLimitPerHour === null ? "plan default" : "own value";
  console.log(`${result.username} (id ${result.id}): plan ${result.plan}, ${result.effectiveLimitPerHour} requests per hour (${own})`);
}

async function run(args: string[]): Promise<void> {
  const [command, username, plan, ...rest] = args;
  if (command === "screening:load" && username && plan === undefined) {
    const xml = await readFile(username, "utf8").catch((error: Error) => {
      throw new AdminError(`Cannot read ${username}: ${error.message}`);
    });
    const database = await getDatabase();
    try {
      const { load, list } = await loadSanctionsList(database.db, xml).catch((error: unknown) => {
        throw error instanceof SanctionsListFormatError ? new AdminError(error.message) : error;
      });
      console.log(
        `${load.source} list of ${load.publishedOn} loaded: ${load.entries} listed parties, ${load.addresses} EVM addresses (${list.otherChainAddresses} addresses of other chains skipped).`,
      );
    } finally {
      await database.close();
    }
    return;
  }
  if (command === "screening:status" && username === undefined) {
    const database = await getDatabase();
    try {
      const load = await findLatestListLoad(database.db);
      console.log(
        load
          ? `${load.source} list of ${load.publishedOn}, loaded ${load.loadedAt.toISOString()}: ${load.addresses} EVM addresses.`
          : "No sanctions list loaded: payers and refund destinations are not screened against one.",
      );
    } finally {
      await database.close();
    }
    return;
  }
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
      if (value === undefined || !/^\d+$/.test(value))
        throw new AdminError(`Unexpected argument '${flag}'${flag === "--rate-limit" ? " (needs a whole number)" : ""}.\n${usage}`);
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
