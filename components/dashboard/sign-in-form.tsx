"use client";

import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { startTransition, useActionState, useRef, useState } from "react";
import { Alert, Button } from "@/components/ui";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "@/components/ui/ui.module.css";

/**
 * Username and password; when the account has two-factor authentication the action answers
 * SECOND_FACTOR_REQUIRED and the form shows its code field (password kept, sent again with the code)
 * and "Use a passkey" (the browser's passkey prompt; the assertion is sent instead of a code).
 */
export function SignInForm({
  action,
  passkeyOptions,
  callbackUrl,
}: {
  action: (form: FormData) => Promise<ActionResult<unknown>>;
  /** "Use a passkey": the password again → WebAuthn request options for the account's passkeys. */
  passkeyOptions?: (input: { username: string; password: string }) => Promise<ActionResult<unknown>>;
  callbackUrl: string;
}) {
  const [result, run, pending] = useActionState<ActionResult<unknown> | null, FormData>((_p, form) => action(form), null);
  const [askCode, setAskCode] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const error = passkeyError ? null : result && !result.ok ? result.error : null;

  async function signInWithPasskey() {
    const form = formRef.current;
    if (!form || !passkeyOptions) return;
    const fields = new FormData(form);
    setPasskeyError(null);
    setPasskeyPending(true);
    try {
      const options = await passkeyOptions({ username: String(fields.get("username") ?? ""), password: String(fields.get("password") ?? "") });
      if (!options.ok) {
        setPasskeyError(options.error.message);
        return;
      }
      const assertion = await startAuthentication({ optionsJSON: options.data as PublicKeyCredentialRequestOptionsJSON });
      fields.delete("code");
      fields.set("passkey", JSON.stringify(assertion));
      startTransition(() => run(fields));
    } catch (failure) {
      setPasskeyError(
        failure instanceof Error && failure.name === "NotAllowedError" ? "The passkey prompt was closed or timed out." : "The passkey could not be used.",
      );
    } finally {
      setPasskeyPending(false);
    }
  }
  const needsCode = askCode || error?.code === "SECOND_FACTOR_REQUIRED";
  if (needsCode && !askCode) setAskCode(true);

  return (
    <form
      ref={formRef}
      aria-label="Sign in"
      onSubmit={(event) => {
        event.preventDefault();
        setPasskeyError(null);
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
          <input
            id="sign-in-code"
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            autoFocus
            maxLength={64}
            aria-describedby="sign-in-code-hint"
          />
          <span id="sign-in-code-hint" className={styles.hint}>
            The 6-digit code from your authenticator app, or one of your recovery codes.
          </span>
        </div>
      ) : null}
      {error && error.code !== "SECOND_FACTOR_REQUIRED" ? <Alert kind="error">{error.message}</Alert> : null}
      {passkeyError ? <Alert kind="error">{passkeyError}</Alert> : null}
      <Button type="submit" disabled={pending || passkeyPending}>
        {pending ? "Working…" : needsCode ? "Verify" : "Sign in"}
      </Button>
      {needsCode && passkeyOptions ? (
        <Button type="button" variant="secondary" disabled={pending || passkeyPending} onClick={() => void signInWithPasskey()}>
          {passkeyPending ? "Waiting for the passkey…" : "Use a passkey"}
        </Button>
      ) : null}
    </form>
  );
}
