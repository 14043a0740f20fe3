"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, type ReactNode } from "react";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "@/components/ui/ui.module.css";

type Enrolment = { secret: string; otpauth_uri: string; qr_svg: string };
type Codes = { recovery_codes: string[] };
type Action<T> = (form: FormData) => Promise<ActionResult<T>>;

function useFormAction<T>(action: Action<T>) {
  const [result, run, pending] = useActionState<ActionResult<T> | null, FormData>((_p, form) => action(form), null);
  const errors = (name: string) => (result && !result.ok ? (result.error.details?.[name] ?? []) : []);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => run(form));
  };
  return { result, pending, errors, submit };
}

function Input({
  id,
  label,
  name,
  errors,
  ...input
}: { id: string; label: string; name: string; errors: string[] } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={errors.length > 0 || undefined} aria-describedby={errors.length ? `${id}-err` : undefined} {...input} />
      {errors.length ? (
        <span id={`${id}-err`} className={styles.fieldError}>
          {errors.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

function Failure({ result }: { result: ActionResult<unknown> | null }): ReactNode {
  return result && !result.ok ? <Alert kind="error">{result.error.message}</Alert> : null;
}

/**
 * Two-factor authentication settings: enrol (password → QR code and secret → first code → ten
 * recovery codes, shown once) or, when on, disable with the password and a fresh code.
 */
export function TotpSettings({
  enabled,
  enabledAt,
  recoveryCodesRemaining,
  otherFactorOn = false,
  start,
  confirm,
  disable,
}: {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesRemaining: number;
  /** A passkey already guards the account: set-up asks a recovery code as well as the password. */
  otherFactorOn?: boolean;
  start: Action<Enrolment>;
  confirm: Action<Codes>;
  disable: Action<unknown>;
}) {
  const router = useRouter();
  const started = useFormAction(start);
  const confirmed = useFormAction(confirm);
  const disabled = useFormAction(disable);
  useEffect(() => {
    if (confirmed.result?.ok || disabled.result?.ok) router.refresh();
  }, [confirmed.result, disabled.result, router]);

  if (confirmed.result?.ok) {
    const codes = confirmed.result.data.recovery_codes;
    return (
      <div role="status" className={`${styles.alert} ${styles.alertWarn}`} data-testid="recovery-codes">
        <p style={{ marginTop: 0 }}>
          <strong>Two-factor authentication is on. Save these recovery codes now.</strong> Each works once in place of a code if you lose your phone. They are
          shown only this once.
        </p>
        <pre>{codes.join("\n")}</pre>
        <CopyButton text={codes.join("\n")} label="Copy recovery codes" />
      </div>
    );
  }

  if (enabled && !disabled.result?.ok) {
    return (
      <>
        <p>
          On since {enabledAt ? new Date(enabledAt).toLocaleString() : "—"}. {recoveryCodesRemaining} of 10 recovery codes left. Sign-in, new API keys, new
          webhook endpoints and payout address changes ask for a code.
        </p>
        <form aria-label="Disable two-factor authentication" onSubmit={disabled.submit}>
          <div className={styles.row}>
            <Input
              id="totp-off-password"
              label="Current password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              errors={disabled.errors("password")}
            />
            <Input
              id="totp-off-code"
              label="Authentication code"
              name="code"
              autoComplete="one-time-code"
              required
              maxLength={64}
              errors={disabled.errors("code")}
            />
          </div>
          <Failure result={disabled.result} />
          <Button type="submit" variant="danger" disabled={disabled.pending}>
            {disabled.pending ? "Working…" : "Disable two-factor authentication"}
          </Button>
        </form>
      </>
    );
  }

  if (started.result?.ok) {
    const { secret, qr_svg } = started.result.data;
    return (
      <>
        <p>Scan this QR code with your authenticator app (or type the secret), then enter the code it shows.</p>
        {/* The SVG is made on the server by the qrcode package from our own otpauth:// URI. */}
        <div data-testid="totp-qr" style={{ width: 200 }} dangerouslySetInnerHTML={{ __html: qr_svg }} />
        <p>
          Secret: <code data-testid="totp-secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
        </p>
        <form aria-label="Confirm two-factor authentication" onSubmit={confirmed.submit}>
          <Input
            id="totp-confirm-code"
            label="Code from the app"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            maxLength={64}
            errors={confirmed.errors("code")}
          />
          <Failure result={confirmed.result} />
          <Button type="submit" disabled={confirmed.pending}>
            {confirmed.pending ? "Checking…" : "Turn on"}
          </Button>
        </form>
      </>
    );
  }

  return (
    <>
      <p>Off. With it on, signing in and sensitive changes ask for a code from an authenticator app as well as your password.</p>
      <form aria-label="Set up two-factor authentication" onSubmit={started.submit}>
        <Input
          id="totp-on-password"
          label="Current password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          errors={started.errors("password")}
        />
        {otherFactorOn ? (
          <Input id="totp-on-code" label="Recovery code" name="code" autoComplete="one-time-code" required maxLength={64} errors={started.errors("code")} />
        ) : null}
        <Failure result={started.result} />
        <Button type="submit" disabled={started.pending}>
          {started.pending ? "Working…" : "Set up an authenticator app"}
        </Button>
      </form>
    </>
  );
}
