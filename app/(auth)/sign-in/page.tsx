import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { Card } from "@/components/ui";
import { getSessionMerchant } from "@/lib/auth/next-auth";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { passkeySignInOptionsAction, signInAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.signIn"))("metaTitle") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl, { fallback: "/dashboard" });
  if (await getSessionMerchant()) redirect(callbackUrl);
  const t = await getTranslations("dashboard.auth.signIn");
  return (
    <Card>
      <h1>{t("heading")}</h1>
      <SignInForm action={signInAction} passkeyOptions={passkeySignInOptionsAction} callbackUrl={callbackUrl} />
      <p>
        <Link href="/forgot-password">{t("forgot")}</Link>
      </p>
      <p>
        {t("newHere")} <Link href="/sign-up">{t("signUp")}</Link>
      </p>
    </Card>
  );
}
