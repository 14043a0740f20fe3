import Link from "next/link";
import type { Metadata } from "next";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { verifyEmailAction } from "./actions";

export const metadata: Metadata = { title: "Confirm your email · Payment Gateway" };

// Opening the link shows a button rather than verifying at once: mail scanners that fetch links must not spend it.
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <Card>
      <h1>Confirm your email address</h1>
      {typeof token === "string" && token !== "" ? (
        <ActionForm
          action={verifyEmailAction}
          submitLabel="Confirm my address"
          label="Confirm the email address"
          hiddenFields={{ token }}
          successMessage="Your email address is confirmed."
        >
          {null}
        </ActionForm>
      ) : (
        <p>This page needs the link from the verification email.</p>
      )}
      <p>
        <Link href="/dashboard">Go to the dashboard</Link>
      </p>
    </Card>
  );
}
