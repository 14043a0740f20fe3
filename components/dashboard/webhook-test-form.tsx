"use client";

import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui";
import { ActionForm, SelectField } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import { describeWebhookTest, type WebhookTestResult } from "@/lib/dashboard/webhook-test-outcome";

/** Sends a test event and shows its delivery result (status, time, error) right under the button. */
export function WebhookTestForm({
  action,
  endpointId,
  url,
  events,
}: {
  action: (form: FormData) => Promise<ActionResult<WebhookTestResult>>;
  endpointId: number;
  url: string;
  events: readonly string[];
}) {
  const t = useTranslations("dashboard.shared.webhookTest");
  return (
    <ActionForm
      action={action}
      hiddenFields={{ id: endpointId }}
      submitLabel={t("submit")}
      resetOnSuccess={false}
      label={t("label", { url })}
      renderResult={(data) => {
        const outcome = describeWebhookTest(data as WebhookTestResult);
        const text =
          outcome.outcome === "delivered"
            ? t("delivered", { status: String(outcome.status), ms: String(outcome.durationMs) })
            : outcome.outcome === "rejected"
              ? t("rejected", { status: String(outcome.status), ms: String(outcome.durationMs) })
              : outcome.error
                ? t("unreachable", { ms: String(outcome.durationMs), error: outcome.error })
                : t("unreachableUnknown", { ms: String(outcome.durationMs) });
        return (
          <Alert kind={outcome.kind}>
            <span data-testid="webhook-test-result">{text}</span>
          </Alert>
        );
      }}
    >
      <SelectField label={t("event")} name="event" options={events.map((e) => ({ value: e, label: e }))} />
    </ActionForm>
  );
}
