import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { getSessionMerchant } from "@/lib/auth/next-auth";
import { signUpAction } from "./actions";

export const metadata: Metadata = { title: "Create an account · Payment Gateway" };

export default async function SignUpPage() {
  if (await getSessionMerchant()) redirect("/dashboard");
  return (
    <Card>
      <h1>Create an account</h1>
      <ActionForm action={signUpAction} submitLabel="Create account" label="Create an account" resetOnSuccess={false}>
        <Field label="Username" name="username" autoComplete="username" required minLength={3} />
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        <Field label="Shop name" name="shop_name" required hint="Shown to your customers on the payment page." />
      </ActionForm>
      <p>
        Already have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </Card>
  );
}
