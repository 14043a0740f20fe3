"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "./dashboard.module.css";

/**
 * The Team page's invitation form. When the deployment sends no mail, the action hands its sender
 * the link this once (it is the invitee's credential: no list shows it again), to pass on.
 */
export function InviteMemberForm({ action, children }: { action: (form: FormData) => Promise<ActionResult<unknown>>; children: ReactNode }) {
  const t = useTranslations("dashboard.shared");
  return (
    <ActionForm
      action={action}
      submitLabel={t("invite.submit")}
      label={t("invite.label")}
      renderResult={(data) => {
        const sent = data as { email: string; invitation_url: string | null };
        if (!sent.invitation_url) return <Alert kind="ok">{t("invite.sent")}</Alert>;
        return (
          <Alert kind="ok">
            {t("invite.made", { email: sent.email })}
            <span data-testid="invitation-link" className={`mono ${styles.wrapAnywhere}`} style={{ display: "block", margin: "0.5rem 0" }}>
              {sent.invitation_url}
            </span>
            <CopyButton
              text={sent.invitation_url}
              label={t("invite.copy")}
              words={{ copied: t("copy.copied"), copiedStatus: t("copy.copiedStatus"), failed: t("copy.failed") }}
            />
          </Alert>
        );
      }}
    >
      {children}
    </ActionForm>
  );
}
