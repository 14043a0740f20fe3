import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { dripFaucet } from "@/lib/sandbox/sandbox-tools";
import { faucetBody } from "@/lib/sandbox/schemas";
import { spendFaucetSend } from "@/lib/sandbox/usage-limits";

// POST /api/sandbox/faucet/ – test tokens or native coin to any address on the devnet
export const POST = withApi({ route: "POST /api/sandbox/faucet", body: faucetBody, sandboxOnly: true }, async ({ db, body, principal }) => {
  await spendFaucetSend(db, principal.merchantId);
  return ok(await dripFaucet(body), "Sent from the faucet.");
});
