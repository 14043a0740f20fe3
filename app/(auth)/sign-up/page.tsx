import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { getSessionMerchant } from "@/lib/auth/next-auth";
import { signUpAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.signUp"))("metaTitle") };
}

export default async function SignUpPage() {
  if (await getSessionMerchant()) redirect("/dashboard");
  const t = await getTranslations("dashboard.auth.signUp");
  return (
    <Card>
      <h1>{t("heading")}</h1>
      <ActionForm action={signUpAction} submitLabel={t("submit")} label={t("heading")} resetOnSuccess={false}>
        <Field label={t("username")} name="username" autoComplete="username" required minLength={3} />
        <Field label={t("email")} name="email" type="email" autoComplete="email" required />
        <Field label={t("password")} name="password" type="password" autoComplete="new-password" required minLength={8} hint={t("passwordHint")} />
        <Field label={t("shopName")} name="shop_name" required hint={t("shopNameHint")} />
      </ActionForm>
      <p>
        {t("haveAccount")} <Link href="/sign-in">{t("signIn")}</Link>
      </p>
    </Card>
  );
}
