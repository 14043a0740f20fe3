import { ActionForm } from "@/components/ui/action-form";
import { getDb } from "@/lib/db/client";
import type { ActionResult } from "@/lib/auth/authed-action";
import { findMerchantById } from "@/lib/auth/queries";
import { outboxShown } from "@/lib/mail/mailer";

/** Until the account's address is verified: a reminder with a button to mail the link again (`resend`: the page's action that does). */
export async function VerifyEmailBanner({ merchantId, resend }: { merchantId: number; resend: (form: FormData) => Promise<ActionResult<unknown>> }) {
  const merchant = await findMerchantById(await getDb(), merchantId);
  if (!merchant || merchant.emailVerifiedAt) return null;
  return (
    <section
      role="status"
      aria-label="Email verification"
      style={{ border: "1px solid var(--border)", borderRadius: 6, padding: "0.5rem 1rem", marginBottom: "1rem" }}
    >
      <p>
        Confirm your email address: we sent a link to <strong>{merchant.email}</strong>.{" "}
        {outboxShown() ? (
          <>
            Mail from this deployment is in the <a href="/dashboard/outbox">outbox</a>.
          </>
        ) : null}
      </p>
      <ActionForm
        action={resend}
        submitLabel="Send the link again"
        label="Send the verification link again"
        variant="secondary"
        small
        successMessage="A new link is on its way."
      />
    </section>
  );
}
