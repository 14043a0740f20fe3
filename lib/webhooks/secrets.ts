import type { WebhookEndpoint } from "@/lib/db/schema";
import type { AccountSecrets } from "@/lib/auth/queries";

/** The secrets that sign a delivery now: the current one, plus the previous one during its rotation window. */
export function activeSecrets(current: string, previous: string | null, previousExpiresAt: Date | null, now: Date): [string, ...string[]] {
  return previous && previousExpiresAt && previousExpiresAt.getTime() > now.getTime() ? [current, previous] : [current];
}

export function endpointSigningSecrets(endpoint: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">, now: Date) {
  return activeSecrets(endpoint.secret, endpoint.previousSecret, endpoint.previousSecretExpiresAt, now);
}

/** Per-order webhook_url deliveries are signed with the account's secret (DESIGN › Shapes). */
export function accountSigningSecrets(account: Pick<AccountSecrets, "webhookSecret" | "previousWebhookSecret" | "previousWebhookSecretExpiresAt">, now: Date) {
  return activeSecrets(account.webhookSecret, account.previousWebhookSecret, account.previousWebhookSecretExpiresAt, now);
}
