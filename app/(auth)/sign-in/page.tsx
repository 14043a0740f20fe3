import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { Card } from "@/components/ui";
import { getSessionMerchant } from "@/lib/auth/next-auth";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { passkeySignInOptionsAction, signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in · Payment Gateway" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl, { fallback: "/dashboard" });
  if (await getSessionMerchant()) redirect(callbackUrl);
  return (
    <Card>
      <h1>Sign in</h1>
      <SignInForm action={signInAction} passkeyOptions={passkeySignInOptionsAction} callbackUrl={callbackUrl} />
      <p>
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        New here? <Link href="/sign-up">Create an account</Link>
      </p>
    </Card>
  );
}
