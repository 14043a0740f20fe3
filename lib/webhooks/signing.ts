import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures (DESIGN › Webhooks). Two schemes are sent on every delivery:
 * - the spec's `x-webhook-signature`: hex HMAC-SHA256 of the exact body bytes, keyed with the
 *   whole secret string as shown to the merchant (`whsec_…`);
 * - Standard Webhooks `webhook-signature`: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed
 *   with the base64-decoded part after `whsec_`, so replays can be refused by timestamp.
 * This module has no server-only imports: docs/webhooks.md shows the same verification.
 */

/** Standard Webhooks' recommended tolerance for `webhook-timestamp`: five minutes either way. */
export const timestampToleranceSeconds = 5 * 60;

const secretPrefix = "whsec_";

/** The spec header: hex HMAC-SHA256 of `body`, keyed with the whole `whsec_…` string. */
export function signPayload(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/** The Standard Webhooks key: the bytes base64-encoded after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret, "base64");
}

/** One Standard Webhooks signature, `v1,<base64>`, over `${id}.${timestamp}.${body}`. */
export function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", standardWebhooksKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`, "utf8").digest("base64");
  return `v1,${mac}`;
}

/**
 * The headers of one attempt. `secrets` is the current secret first, then any previous one
 * still in its rotation window: `webhook-signature` carries one signature per secret
 * (space-separated, as Standard Webhooks allows); `x-webhook-signature` uses the current one.
 */
export function signatureHeaders(
  body: string,
  messageId: string,
  secrets: readonly [string, ...string[]],
  timestampSeconds: number,
): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string; "x-webhook-signature": string } {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((secret) => standardSignature(secret, messageId, timestampSeconds, body)).join(" "),
    "x-webhook-signature": signPayload(body, secrets[0]),
  };
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `header` is the spec signature of `body` under any of `secrets` (constant-time compare). */
export function verifySpecSignature(body: string, header: string | null | undefined, secrets: readonly string[]): boolean {
  if (!header) return false;
  const given = header.trim().toLowerCase();
  return secrets.some((secret) => safeEqual(signPayload(body, secret), given));
}

export type StandardVerification =
  { valid: true } | { valid: false; reason: "missing_headers" | "bad_timestamp" | "stale_timestamp" | "no_matching_signature" };

/**
 * Verifies the Standard Webhooks headers: the timestamp must be within the tolerance of `now`
 * (replay protection), and one of the space-separated `v1,` signatures must match one secret.
 */
export function verifyStandardSignature(
  headers: { id?: string | null; timestamp?: string | null; signature?: string | null },
  body: string,
  secrets: readonly string[],
  options: { now?: Date; toleranceSeconds?: number } = {},
): StandardVerification {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { valid: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: "bad_timestamp" };
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? timestampToleranceSeconds)) {
    return { valid: false, reason: "stale_timestamp" };
  }
  const given = signature.split(" ").filter((part) => part.startsWith("v1,"));
  for (const secret of secrets) {
    const expected = standardSignature(secret, id, Number(timestamp), body);
    if (given.some((candidate) => safeEqual(candidate, expected))) return { valid: true };
  }
  return { valid: false, reason: "no_matching_signature" };
}
