import { getTranslations } from "next-intl/server";
import { ActionForm } from "@/components/ui/action-form";
import { getDb } from "@/lib/db/client";
import type { ActionResult } from "@/lib/auth/authed-action";
import { findMerchantById } from "@/lib/auth/queries";
import { outboxShown } from "@/lib/mail/mailer";

/** Until the account's address is verified: a reminder with a button to mail the link again (`resend`: the page's action that does). */
export async function VerifyEmailBanner({ merchantId, resend }: { merchantId: number; resend: (form: FormData) => Promise<ActionResult<unknown>> }) {
  const merchant = await findMerchantById(await getDb(), merchantId);
  if (!merchant || merchant.emailVerifiedAt) return null;
  const t = await getTranslations("dashboard.shared.verifyEmail");
  return (
    <section
      role="status"
      aria-label={t("region")}
      style={{ border: "1px solid var(--border)", borderRadius: 6, padding: "0.5rem 1rem", marginBottom: "1rem" }}
    >
      <p>
        {t.rich("confirm", { email: merchant.email, strong: (chunks) => <strong>{chunks}</strong> })}{" "}
        {outboxShown() ? t.rich("outbox", { link: (chunks) => <a href="/dashboard/outbox">{chunks}</a> }) : null}
      </p>
      <ActionForm action={resend} submitLabel={t("resend")} label={t("resendLabel")} variant="secondary" small successMessage={t("sent")} />
    </section>
  );
}
