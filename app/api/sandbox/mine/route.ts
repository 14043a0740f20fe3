import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { mine } from "@/lib/sandbox/sandbox-tools";
import { mineBody } from "@/lib/sandbox/schemas";
import { spendMinedBlocks } from "@/lib/sandbox/usage-limits";

// POST /api/sandbox/mine/ – mine n blocks on the devnet (simulated confirmations)
export const POST = withApi({ route: "POST /api/sandbox/mine", body: mineBody, sandboxOnly: true }, async ({ db, body, principal }) => {
  await spendMinedBlocks(db, principal.merchantId, body.blocks);
  return ok(await mine(body), `Mined ${body.blocks} block(s).`);
});
