"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, type ReactNode } from "react";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "@/components/ui/ui.module.css";
import { formatDate } from "./format";

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
  const t = useTranslations("dashboard.shared.totp");
  const ui = useTranslations("dashboard.ui");
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
          <strong>{t("codesTitle")}</strong> {t("codesExplain")}
        </p>
        <pre>{codes.join("\n")}</pre>
        <CopyButton text={codes.join("\n")} label={t("copyCodes")} />
      </div>
    );
  }

  if (enabled && !disabled.result?.ok) {
    return (
      <>
        <p>{t("onSince", { date: formatDate(enabledAt), left: recoveryCodesRemaining })}</p>
        <form aria-label={t("disable")} onSubmit={disabled.submit}>
          <div className={styles.row}>
            <Input
              id="totp-off-password"
              label={t("password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              errors={disabled.errors("password")}
            />
            <Input id="totp-off-code" label={t("code")} name="code" autoComplete="one-time-code" required maxLength={64} errors={disabled.errors("code")} />
          </div>
          <Failure result={disabled.result} />
          <Button type="submit" variant="danger" disabled={disabled.pending}>
            {disabled.pending ? ui("working") : t("disable")}
          </Button>
        </form>
      </>
    );
  }

  if (started.result?.ok) {
    const { secret, qr_svg } = started.result.data;
    return (
      <>
        <p>{t("scan")}</p>
        {/* The SVG is made on the server by the qrcode package from our own otpauth:// URI. */}
        <div data-testid="totp-qr" style={{ width: 200 }} dangerouslySetInnerHTML={{ __html: qr_svg }} />
        <p>
          {t("secret")} <code data-testid="totp-secret">{secret}</code> <CopyButton text={secret} label={t("copySecret")} />
        </p>
        <form aria-label={t("confirmLabel")} onSubmit={confirmed.submit}>
          <Input
            id="totp-confirm-code"
            label={t("appCode")}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            maxLength={64}
            errors={confirmed.errors("code")}
          />
          <Failure result={confirmed.result} />
          <Button type="submit" disabled={confirmed.pending}>
            {confirmed.pending ? t("checking") : t("turnOn")}
          </Button>
        </form>
      </>
    );
  }

  return (
    <>
      <p>{t("off")}</p>
      <form aria-label={t("setUpLabel")} onSubmit={started.submit}>
        <Input
          id="totp-on-password"
          label={t("password")}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          errors={started.errors("password")}
        />
        {otherFactorOn ? (
          <Input id="totp-on-code" label={t("recoveryCode")} name="code" autoComplete="one-time-code" required maxLength={64} errors={started.errors("code")} />
        ) : null}
        <Failure result={started.result} />
        <Button type="submit" disabled={started.pending}>
          {started.pending ? ui("working") : t("setUp")}
        </Button>
      </form>
    </>
  );
}
