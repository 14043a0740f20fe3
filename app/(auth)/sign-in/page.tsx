import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { getSessionMerchant } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "@/lib/http/safe-redirect";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in · Payment Gateway" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  if (await getSessionMerchant()) redirect(callbackUrl);
  return (
    <Card>
      <h1>Sign in</h1>
      <ActionForm action={signInAction} submitLabel="Sign in" label="Sign in" resetOnSuccess={false}>
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <Field label="Username" name="username" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      </ActionForm>
      <p>
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        New here? <Link href="/sign-up">Create an account</Link>
      </p>
    </Card>
  );
}
