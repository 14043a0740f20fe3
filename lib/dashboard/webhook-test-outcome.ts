/** What the webhook test form returns (app/(dashboard)/dashboard/webhooks/actions.ts, sendTestAction). */
export interface WebhookTestResult {
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  attempted_at: string;
  error: string | null;
}

/**
 * The merchant's words for one test delivery, shown under the form: delivered only on a 2xx, and
 * otherwise what the receiver answered (or why it could not be reached) and how long it took.
 */
export function describeWebhookTest(result: WebhookTestResult): { kind: "ok" | "error"; text: string } {
  const took = `${result.duration_ms} ms`;
  if (result.succeeded) return { kind: "ok", text: `Delivered: your endpoint answered HTTP ${result.status_code} in ${took}.` };
  if (result.status_code !== null)
    return { kind: "error", text: `Not delivered: your endpoint answered HTTP ${result.status_code} after ${took}. It must answer with a 2xx status.` };
  return {
    kind: "error",
    text: `Not delivered after ${took}: ${result.error ?? "the endpoint could not be reached"}. Check the URL and that your server is running.`,
  };
}
