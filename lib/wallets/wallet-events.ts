import "server-only";
import { assertFreshProof } from "@/lib/auth/fresh-proof";
import type { ReauthProof } from "@/lib/auth/schemas";
import type { MerchantWallet } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { eventBody } from "@/lib/webhooks/outbox";
import { activeEndpoints, insertAccountEvent, insertDeliveries } from "@/lib/webhooks/queries";
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
}

export const walletUpdatedEvent = "wallet.updated";

/** A wallet as the audit log keeps it (public values only). */
export function auditedWallet(wallet: MerchantWallet) {
  return { blockchain: wallet.blockchainId, wallet_address: wallet.walletAddress, confirmation_threshold: wallet.confirmationThreshold, is_active: wallet.isActive };
}

export function assertMayChangeAddress(actor: WalletActor): void {
  if (actor.kind === "api_key") {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "Adding or changing a payout address needs a login (access token or dashboard), not an API key.");
  }
}

/**
 * Any path (API with an access token, dashboard): a payout address is added or changed only with a
 * fresh proof of the owner (issue 24), the password today; see lib/auth/fresh-proof.ts.
 */
export async function assertMayRedirectPayouts(db: DbOrTx, merchantId: number, actor: WalletActor, proof: ReauthProof | undefined): Promise<void> {
  assertMayChangeAddress(actor);
  await assertFreshProof(db, actor.userId ?? merchantId, proof, actor.clientIp, { field: actor.proofField, codeField: actor.proofCodeField });
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
  const data = { change: change.kind, wallet: serializeWallet(wallet), previous_address: change.previousAddress, changed_by: actor.kind, client_ip: actor.clientIp };
  const id = newId("event");
  await insertAccountEvent(tx, { id, merchantId: wallet.merchantId, type: walletUpdatedEvent, data, actor: actor.kind, clientIp: actor.clientIp, createdAt: now });
  const endpoints = await activeEndpoints(tx, wallet.merchantId);
  // A first wallet for a chain is recorded, not announced: only a change of an existing payout
  // address can divert payments the merchant expects to receive.
  if (change.kind !== "address_changed" || endpoints.length === 0) return;
  const body = eventBody(id, walletUpdatedEvent, now, null, data);
  await insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      messageId: newId("webhookMessage"),
      merchantId: wallet.merchantId,
      eventId: null,
      endpointId: endpoint.id,
      eventType: walletUpdatedEvent,
      url: endpoint.url,
      body,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
}

