import { runAuthBench } from "./auth";
import { runEngineScaleBench } from "./engine-scale";
import { runGasBench } from "./gas";
import { runLighthouseBench } from "./lighthouse";
import { measureIdle, runOrdersBench } from "./orders";
import { ensureProductionBuild } from "./support";
import { runPayPageBench } from "./pay-page";
import { runProfileBench } from "./profile";
import { runScaleBench } from "./scale";
import { runScannerBench, runScannerCostBench } from "./scanner";
import { runWebhookBench } from "./webhooks";

/** `npm run bench`: every benchmark in turn, or only those named on the command line (e.g. `npm run bench -- auth`). */
const benches: Record<string, () => Promise<void>> = {
  auth: runAuthBench,
  orders: runOrdersBench,
  scanner: runScannerBench,
  // The scanner bench's per-block table alone (calls and bytes per block by open native-coin orders; only when named).
  "scanner-cost": runScannerCostBench,
  webhooks: runWebhookBench,
  "pay-page": runPayPageBench,
  gas: runGasBench,
  // One merchant's lists at 1 k, 100 k and 1 M orders (minutes: only when named; SCALE_MAX=100000 for a quick run).
  scale: runScaleBench,
  // The chain tick, lifecycle and sweeper with 1 k and 100 k open orders, and the webhook outbox claim among 10 M delivered rows (minutes: only when named).
  "engine-scale": runEngineScaleBench,
  // The idle CPU of a sandbox server alone (also the last figure of `orders`; only when named).
  idle: async () => {
    await ensureProductionBuild();
    await measureIdle();
  },
  // Lighthouse on the pay, link and receipt pages (only when named: it needs a devnet and takes minutes).
  lighthouse: runLighthouseBench,
  // Not a benchmark: CPU profiles of `next start` under load (only when named).
  profile: runProfileBench,
};

async function main() {
  const wanted = process.argv.slice(2);
  for (const [name, run] of Object.entries(benches)) {
    if (
      wanted.length
        ? !wanted.includes(name)
        : name === "profile" || name === "scanner-cost" || name === "idle" || name === "scale" || name === "engine-scale" || name === "lighthouse"
    )
      continue;
    await run();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
