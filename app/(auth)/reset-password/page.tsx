import Link from "next/link";
import type { Metadata } from "next";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { confirmPasswordResetAction } from "./actions";

export const metadata: Metadata = { title: "Choose a new password · Payment Gateway" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <Card>
      <h1>Choose a new password</h1>
      {typeof token === "string" && token !== "" ? (
        <ActionForm
          action={confirmPasswordResetAction}
          submitLabel="Set new password"
          label="Set a new password"
          hiddenFields={{ token }}
          successMessage="Password changed. Every session was signed out: sign in with the new password."
        >
          <Field label="New password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        </ActionForm>
      ) : (
        <p>This page needs the link from the reset email.</p>
      )}
      <p>
        <Link href="/sign-in">Sign in</Link> · <Link href="/forgot-password">Ask for a new link</Link>
      </p>
    </Card>
  );
}
