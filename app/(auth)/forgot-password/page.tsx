import Link from "next/link";
import type { Metadata } from "next";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { requestPasswordResetAction } from "./actions";

export const metadata: Metadata = { title: "Forgot password · Payment Gateway" };

export default function ForgotPasswordPage() {
  return (
    <Card>
      <h1>Forgot your password?</h1>
      <p>Enter your account&apos;s email address: we mail you a link to choose a new password. It works once, for an hour.</p>
      <ActionForm
        action={requestPasswordResetAction}
        submitLabel="Send reset link"
        label="Ask for a password reset link"
        successMessage="If an account uses that address, a link to reset its password is on its way."
      >
        <Field label="Email" name="email" type="email" autoComplete="email" required />
      </ActionForm>
      <p>
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </Card>
  );
}
