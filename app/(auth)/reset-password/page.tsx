import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { confirmPasswordResetAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.reset"))("metaTitle") };
}

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const t = await getTranslations("dashboard.auth.reset");
  return (
    <Card>
      <h1>{t("heading")}</h1>
      {typeof token === "string" && token !== "" ? (
        <ActionForm action={confirmPasswordResetAction} submitLabel={t("submit")} label={t("label")} hiddenFields={{ token }} successMessage={t("changed")}>
          <Field label={t("password")} name="password" type="password" autoComplete="new-password" required minLength={8} hint={t("passwordHint")} />
        </ActionForm>
      ) : (
        <p>{t("needLink")}</p>
      )}
      <p>
        <Link href="/sign-in">{t("signIn")}</Link> · <Link href="/forgot-password">{t("newLink")}</Link>
      </p>
    </Card>
  );
}
