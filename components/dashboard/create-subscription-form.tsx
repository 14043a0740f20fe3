"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { ActionForm } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";

/** "Create a subscription", ending with the new subscription's subscribe page to hand the customer (a client part: its result is rendered here). */
export function CreateSubscriptionForm({
  action,
  submitLabel,
  label,
  children,
}: {
  action: (form: FormData) => Promise<ActionResult<unknown>>;
  submitLabel: string;
  label: string;
  children: ReactNode;
}) {
  const t = useTranslations("dashboard.shared.createSubscription");
  return (
    <ActionForm
      action={action}
      submitLabel={submitLabel}
      label={label}
      renderResult={(data) => {
        const d = data as { id: string; subscribe_path: string };
        return <p role="status">{t.rich("created", { id: d.id, path: d.subscribe_path, link: (chunks) => <a href={d.subscribe_path}>{chunks}</a> })}</p>;
      }}
    >
      {children}
    </ActionForm>
  );
}
