import "server-only";
import type { SandboxInboxMessage } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { accountByInboxToken } from "@/lib/auth/queries";
import { endpointSecrets, insertInboxMessage, pruneInbox } from "./queries";
import { activeSecrets } from "./secrets";
import { verifySpecSignature, verifyStandardSignature } from "./signing";

/** The inbox keeps a merchant's newest 200 messages: a capture URL is for trying things out. */
export const inboxCapacity = 200;

/** Headers not worth keeping (or not ours to keep) in the inbox. */
const droppedHeaders = new Set(["cookie", "authorization", "proxy-authorization"]);

export interface CapturedRequest {
  method: string;
  headers: Headers;
  body: string;
}

/**
 * Records what the merchant's sandbox capture URL received and checks both signatures against
 * every secret the merchant has (account and endpoints, with previous ones still in their window),
 * naming the secret that matched. Null when the token names no inbox.
 */
export async function captureInboxMessage(db: DbOrTx, token: string, request: CapturedRequest, now = new Date()): Promise<SandboxInboxMessage | null> {
  const account = await accountByInboxToken(db, token);
  if (!account) return null;

  const candidates: Array<{ label: string; secret: string }> = [];
  const [accountCurrent, accountPrevious] = activeSecrets(account.webhookSecret, account.previousWebhookSecret, account.previousWebhookSecretExpiresAt, now);
  candidates.push({ label: "account", secret: accountCurrent });
  if (accountPrevious) candidates.push({ label: "account (previous)", secret: accountPrevious });
  for (const endpoint of await endpointSecrets(db, account.id)) {
    const [current, previous] = activeSecrets(endpoint.secret, endpoint.previousSecret, endpoint.previousSecretExpiresAt, now);
    candidates.push({ label: `endpoint ${endpoint.id}`, secret: current });
    if (previous) candidates.push({ label: `endpoint ${endpoint.id} (previous)`, secret: previous });
  }

  const specHeader = request.headers.get("x-webhook-signature");
  const specMatch = specHeader ? candidates.find((c) => verifySpecSignature(request.body, specHeader, [c.secret])) : undefined;
  const standardHeaders = {
    id: request.headers.get("webhook-id"),
    timestamp: request.headers.get("webhook-timestamp"),
    signature: request.headers.get("webhook-signature"),
  };
  const standardPresent = Boolean(standardHeaders.id || standardHeaders.timestamp || standardHeaders.signature);
  let standard: string = "missing";
  let standardMatch: string | null = null;
  if (standardPresent) {
    const overall = verifyStandardSignature(
      standardHeaders,
      request.body,
      candidates.map((c) => c.secret),
      { now },
    );
    standard = overall.valid ? "valid" : overall.reason;
    if (overall.valid) standardMatch = candidates.find((c) => verifyStandardSignature(standardHeaders, request.body, [c.secret], { now }).valid)?.label ?? null;
  }

  const spec = specHeader ? (specMatch ? "valid" : "invalid") : "missing";
  const checked = [spec, standard].filter((result) => result !== "missing");
  const headers = Object.fromEntries([...request.headers.entries()].filter(([name]) => !droppedHeaders.has(name)));

  const message = await insertInboxMessage(db, {
    merchantId: account.id,
    receivedAt: now,
    method: request.method,
    headers,
    // PostgreSQL text cannot hold NUL; the signatures were checked on the bytes as received.
    body: request.body.replaceAll("\u0000", "\uFFFD"),
    signatureValid: checked.length === 0 ? null : checked.every((result) => result === "valid"),
    signatureDetails: {
      x_webhook_signature: spec,
      webhook_signature: standard,
      signed_with: specMatch?.label ?? standardMatch,
    },
  });
  await pruneInbox(db, account.id, inboxCapacity);
  return message;
}
