import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { requestPasswordResetAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.forgot"))("metaTitle") };
}

export default async function ForgotPasswordPage() {
  const t = await getTranslations("dashboard.auth.forgot");
  return (
    <Card>
      <h1>{t("heading")}</h1>
      <p>{t("explain")}</p>
      <ActionForm action={requestPasswordResetAction} submitLabel={t("submit")} label={t("label")} successMessage={t("sent")}>
        <Field label={t("email")} name="email" type="email" autoComplete="email" required />
      </ActionForm>
      <p>
        <Link href="/sign-in">{t("back")}</Link>
      </p>
    </Card>
  );
}
