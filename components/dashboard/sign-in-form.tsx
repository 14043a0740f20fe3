"use client";

import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
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
  const t = useTranslations("dashboard.auth.form");
  const [result, run, pending] = useActionState<ActionResult<unknown> | null, FormData>((_p, form) => action(form), null);
  const [askCode, setAskCode] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [byPasskey, setByPasskey] = useState(false);
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
        setPasskeyError(errorText(options.error));
        return;
      }
      const assertion = await startAuthentication({ optionsJSON: options.data as PublicKeyCredentialRequestOptionsJSON });
      fields.delete("code");
      fields.set("passkey", JSON.stringify(assertion));
      setByPasskey(true);
      startTransition(() => run(fields));
    } catch (failure) {
      setPasskeyError(failure instanceof Error && failure.name === "NotAllowedError" ? t("passkeyClosed") : t("passkeyFailed"));
    } finally {
      setPasskeyPending(false);
    }
  }
  /** The sign-in action's refusals in the reader's language (the action's own message, English like the API's, otherwise). */
  function errorText(failure: { code: string; message: string }): string {
    if (failure.code === "RATE_LIMITED") return t("rateLimited");
    if (failure.code === "INVALID_CREDENTIALS") return byPasskey ? t("passkeyInvalid") : needsCode ? t("invalidWithCode") : t("invalid");
    return failure.message;
  }
  const needsCode = askCode || error?.code === "SECOND_FACTOR_REQUIRED";
  if (needsCode && !askCode) setAskCode(true);

  return (
    <form
      ref={formRef}
      aria-label={t("label")}
      onSubmit={(event) => {
        event.preventDefault();
        setPasskeyError(null);
        setByPasskey(false);
        const form = new FormData(event.currentTarget);
        startTransition(() => run(form));
      }}
    >
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div className={styles.field} hidden={needsCode}>
        <label htmlFor="sign-in-username">{t("username")}</label>
        <input id="sign-in-username" name="username" autoComplete="username" required />
      </div>
      <div className={styles.field} hidden={needsCode}>
        <label htmlFor="sign-in-password">{t("password")}</label>
        <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {needsCode ? (
        <div className={styles.field}>
          <label htmlFor="sign-in-code">{t("code")}</label>
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
            {t("codeHint")}
          </span>
        </div>
      ) : null}
      {error && error.code !== "SECOND_FACTOR_REQUIRED" ? <Alert kind="error">{errorText(error)}</Alert> : null}
      {passkeyError ? <Alert kind="error">{passkeyError}</Alert> : null}
      <Button type="submit" disabled={pending || passkeyPending}>
        {pending ? t("working") : needsCode ? t("verify") : t("submit")}
      </Button>
      {needsCode && passkeyOptions ? (
        <Button type="button" variant="secondary" disabled={pending || passkeyPending} onClick={() => void signInWithPasskey()}>
          {passkeyPending ? t("passkeyWaiting") : t("passkey")}
        </Button>
      ) : null}
    </form>
  );
}
