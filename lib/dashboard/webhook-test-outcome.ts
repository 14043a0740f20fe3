/** What the webhook test form returns (app/(dashboard)/dashboard/webhooks/actions.ts, sendTestAction). */
export interface WebhookTestResult {
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  attempted_at: string;
  error: string | null;
}

/**
 * One test delivery's outcome, for the form to put in the merchant's words (messages ›
 * dashboard.shared.webhookTest): delivered only on a 2xx; otherwise what the receiver answered,
 * or why it could not be reached (the transport's own error text, or null), and how long it took.
 */
export type WebhookTestOutcome =
  | { kind: "ok"; outcome: "delivered"; status: number; durationMs: number }
  | { kind: "error"; outcome: "rejected"; status: number; durationMs: number }
  | { kind: "error"; outcome: "unreachable"; error: string | null; durationMs: number };

export function describeWebhookTest(result: WebhookTestResult): WebhookTestOutcome {
  const durationMs = result.duration_ms;
  if (result.succeeded) return { kind: "ok", outcome: "delivered", status: result.status_code ?? 200, durationMs };
  if (result.status_code !== null) return { kind: "error", outcome: "rejected", status: result.status_code, durationMs };
  return { kind: "error", outcome: "unreachable", error: result.error, durationMs };
}
