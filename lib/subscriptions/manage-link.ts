import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/auth/secret";
import { env } from "@/lib/env";

/**
 * The manage page's capability link (docs/design/subscriptions.md › The customer's pages): the
 * subscription's id and an HMAC of it under the server's secret. Handed out by the subscribe page
 * for a proof that the subscription's wallet acted, and in every mail to the customer.
 */

export const subscriptionIdPattern = /^SUB-[0-9A-Za-z]{16}$/;

function manageSignature(subscriptionId: string): string {
  return createHmac("sha256", getAuthSecret()).update(`subscription-manage:${subscriptionId}`).digest("base64url");
}

/** The manage link's token: the subscription's id and an HMAC of it under the server's secret (no row to look up). */
export function manageToken(subscriptionId: string): string {
  return `${subscriptionId}.${manageSignature(subscriptionId)}`;
}

/** The subscription's hosted subscribe page, where its customer signs. */
export function subscribeUrl(subscriptionId: string): string {
  return new URL(`/subscribe/${subscriptionId}`, env.APP_URL).toString();
}

export function manageUrl(subscriptionId: string): string {
  return new URL(`/subscribe/manage/${manageToken(subscriptionId)}`, env.APP_URL).toString();
}

/** The subscription a manage token names, or null for anything this server did not sign. */
export function subscriptionIdOfManageToken(token: string): string | null {
  const [subscriptionId = "", signed = ""] = token.split(".");
  if (!subscriptionIdPattern.test(subscriptionId)) return null;
  const expected = manageSignature(subscriptionId);
  if (signed.length !== expected.length || !timingSafeEqual(Buffer.from(signed), Buffer.from(expected))) return null;
  return subscriptionId;
}
