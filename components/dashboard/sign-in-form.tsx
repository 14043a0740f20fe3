"use client";

import { startTransition, useActionState, useState } from "react";
import { Alert, Button } from "@/components/ui";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "@/components/ui/ui.module.css";

/**
 * Username and password; when the account has two-factor authentication the action answers
 * SECOND_FACTOR_REQUIRED and the form shows its code field (password kept, sent again with the code).
 */
export function SignInForm({ action, callbackUrl }: { action: (form: FormData) => Promise<ActionResult<unknown>>; callbackUrl: string }) {
  const [result, run, pending] = useActionState<ActionResult<unknown> | null, FormData>((_p, form) => action(form), null);
  const [askCode, setAskCode] = useState(false);
  const error = result && !result.ok ? result.error : null;
  const needsCode = askCode || error?.code === "SECOND_FACTOR_REQUIRED";
  if (needsCode && !askCode) setAskCode(true);

  return (
    <form
      aria-label="Sign in"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        startTransition(() => run(form));
      }}
    >
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div className={styles.field} hidden={needsCode}>
        <label htmlFor="sign-in-username">Username</label>
        <input id="sign-in-username" name="username" autoComplete="username" required />
      </div>
      <div className={styles.field} hidden={needsCode}>
        <label htmlFor="sign-in-password">Password</label>
        <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {needsCode ? (
        <div className={styles.field}>
          <label htmlFor="sign-in-code">Authentication code</label>
          <input id="sign-in-code" name="code" autoComplete="one-time-code" inputMode="text" required autoFocus maxLength={64} aria-describedby="sign-in-code-hint" />
          <span id="sign-in-code-hint" className={styles.hint}>
            The 6-digit code from your authenticator app, or one of your recovery codes.
          </span>
        </div>
      ) : null}
      {error && error.code !== "SECOND_FACTOR_REQUIRED" ? <Alert kind="error">{error.message}</Alert> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Working…" : needsCode ? "Verify" : "Sign in"}
      </Button>
    </form>
  );
}
