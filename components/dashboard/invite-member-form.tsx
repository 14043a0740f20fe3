"use client";

import type { ReactNode } from "react";
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
  return (
    <ActionForm
      action={action}
      submitLabel="Send invitation"
      label="Invite a member"
      renderResult={(data) => {
        const sent = data as { email: string; invitation_url: string | null };
        if (!sent.invitation_url) return <Alert kind="ok">Invitation sent: the link works once, for 7 days.</Alert>;
        return (
          <Alert kind="ok">
            Invitation made. This deployment sends no mail, so give {sent.email} this link yourself; it is shown only now, works once, for 7 days, and only for
            a login using that address:
            <span data-testid="invitation-link" className={`mono ${styles.wrapAnywhere}`} style={{ display: "block", margin: "0.5rem 0" }}>
              {sent.invitation_url}
            </span>
            <CopyButton text={sent.invitation_url} label="Copy link" />
          </Alert>
        );
      }}
    >
      {children}
    </ActionForm>
  );
}
