import Link from "next/link";
import type { Metadata } from "next";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { getDb } from "@/lib/db/client";
import { describeInvitation } from "@/lib/members/members";
import { acceptInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Accept an invitation · Payment Gateway" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, joined, role } = await searchParams;
  if (typeof joined === "string" && joined !== "") {
    return (
      <Card>
        <h1>Joined {joined.slice(0, 100)}</h1>
        <p role="status">
          You are a member{typeof role === "string" ? ` (${role.slice(0, 20)})` : ""}. Sign in, then pick the store in the dashboard&apos;s store switcher.
        </p>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </Card>
    );
  }
  const invitation = typeof token === "string" && token !== "" && token.length <= 256 ? await describeInvitation(await getDb(), token) : null;
  if (!invitation || typeof token !== "string") {
    return (
      <Card>
        <h1>Invitation</h1>
        <p>This invitation is invalid, was already used or has expired. Ask for a new one.</p>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <h1>Join {invitation.shopName}</h1>
      <p>
        You are invited as <strong>{invitation.role}</strong> ({invitation.email}). Accept with the login that uses this address, or create one.
      </p>
      <h2>I have a login</h2>
      <ActionForm action={acceptInvitationAction} submitLabel="Accept with my login" label="Accept with an existing login" hiddenFields={{ token }}>
        <Field label="Username" name="username" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <Field
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          hint="Only if your login has two-factor authentication: a code from your app, or a recovery code."
        />
      </ActionForm>
      <h2>Create a login</h2>
      <ActionForm
        action={acceptInvitationAction}
        submitLabel="Create login and accept"
        label="Accept with a new login"
        hiddenFields={{ token, create_login: "on" }}
      >
        <Field label="Username" name="username" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        <Field label="Your own store's name" name="shop_name" hint="Every login also gets its own store; default: the username." />
      </ActionForm>
      <p>
        <Link href="/sign-in">Sign in</Link>
      </p>
    </Card>
  );
}
