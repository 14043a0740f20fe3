import "server-only";
import { assertFreshProof } from "@/lib/auth/fresh-proof";
import type { ReauthProof } from "@/lib/auth/schemas";
import type { MerchantWallet } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { recordAccountEvent } from "@/lib/webhooks/outbox";
import { activeEndpoints } from "@/lib/webhooks/queries";
import { serializeWallet } from "./serialize";

/**
 * Who is changing a payout wallet (issue 13): the payout address decides where every future
 * payment goes, so adding or changing it needs a login (an access token or the dashboard, where
 * the password is asked again), never an API key; each change is kept in `account_events` and
 * announced as a `wallet.updated` webhook to every active endpoint.
 */
export interface WalletActor {
  kind: "access_token" | "api_key" | "session";
  clientIp: string | null;
  /** Where a refused proof is reported in `details`: `reauth.password` (API), `password` (dashboard form). */
  proofField?: string;
  /** Where a refused second-factor code is reported: `reauth.code` (API), `code` (dashboard form). */
  proofCodeField?: string;
  /** The login whose password and second factor are asked (issue 28: a member acting in an account); default: the account's own login. */
  userId?: number | null;
  /** An access token: when its login gave the password and second factor (lib/auth/jwt.ts `authAt`). */
  signedInAt?: Date | null;
}

/** How long a sign-in counts as the fresh proof for adding a payout wallet (the spec's create fields, no `reauth`). */
export const freshSignInMs = 10 * 60 * 1000;

/**
 * Whether the caller's sign-in itself is the fresh proof (issue 49 item 7): an access token of the
 * account's own login whose password and second factor were given in the last `freshSignInMs` (a
 * refresh keeps the sign-in's time). Never a dashboard session (its form asks the password), an
 * API key, or a member acting in someone else's account: they give `reauth`.
 */
function signInIsFreshProof(merchantId: number, actor: WalletActor, now: Date): boolean {
  if (actor.kind !== "access_token" || actor.userId !== merchantId || !actor.signedInAt) return false;
  const age = now.getTime() - actor.signedInAt.getTime();
  return age >= 0 && age <= freshSignInMs;
}

export const walletUpdatedEvent = "wallet.updated";

/** A wallet as the audit log keeps it (public values only). */
export function auditedWallet(wallet: MerchantWallet) {
  return {
    blockchain: wallet.blockchainId,
    wallet_address: wallet.walletAddress,
    confirmation_threshold: wallet.confirmationThreshold,
    is_active: wallet.isActive,
  };
}

export function assertMayChangeAddress(actor: WalletActor): void {
  if (actor.kind === "api_key") {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "Adding or changing a payout address needs a login (access token or dashboard), not an API key.");
  }
}

/**
 * Any path (API with an access token, dashboard): a payout address is changed only with a fresh
 * proof of the login (issue 24), the password and second factor; see lib/auth/fresh-proof.ts.
 */
export async function assertMayRedirectPayouts(db: DbOrTx, merchantId: number, actor: WalletActor, proof: ReauthProof | undefined): Promise<void> {
  assertMayChangeAddress(actor);
  await assertFreshProof(db, actor.userId ?? merchantId, proof, actor.clientIp, { field: actor.proofField, codeField: actor.proofCodeField });
}

/**
 * A payout wallet for a chain that has none (issue 49 item 7): the same fresh proof as changing an
 * address, except that a sign-in of the account's own login within `freshSignInMs` is that proof
 * (so the spec's create request, made right after logging in, still works). A `reauth` given is
 * always checked.
 */
export async function assertMayAddPayoutWallet(
  db: DbOrTx,
  merchantId: number,
  actor: WalletActor,
  proof: ReauthProof | undefined,
  now = new Date(),
): Promise<void> {
  assertMayChangeAddress(actor);
  if (!proof && signInIsFreshProof(merchantId, actor, now)) return;
  await assertFreshProof(db, actor.userId ?? merchantId, proof, actor.clientIp, { field: actor.proofField, codeField: actor.proofCodeField, now });
}

/**
 * Records a payout wallet addition or address change; an address change also queues its
 * `wallet.updated` deliveries (every active endpoint, whatever its subscription list: a security
 * notice cannot be opted out of). Call in the transaction that changed the wallet.
 */
export async function recordWalletChange(
  tx: DbOrTx,
  wallet: MerchantWallet,
  change: { kind: "created" | "address_changed"; previousAddress: string | null },
  actor: WalletActor,
  now: Date,
): Promise<void> {
  const data = {
    change: change.kind,
    wallet: serializeWallet(wallet),
    previous_address: change.previousAddress,
    changed_by: actor.kind,
    client_ip: actor.clientIp,
  };
  // A first wallet for a chain is recorded, not announced: only a change of an existing payout
  // address can divert payments the merchant expects to receive.
  const endpoints = change.kind === "address_changed" ? await activeEndpoints(tx, wallet.merchantId) : [];
  await recordAccountEvent(tx, { merchantId: wallet.merchantId, type: walletUpdatedEvent, data, actor }, endpoints, now);
}
