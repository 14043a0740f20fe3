"use client";

import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";
import type { finishPasskeyRegistration, removePasskey } from "@/lib/auth/manage-passkeys";
import type { passkeyAssertion, registerPasskeyBody } from "@/lib/auth/schemas";
import styles from "@/components/ui/ui.module.css";
import { formatDate } from "./format";

type Passkey = { id: number; name: string; created_at: string; last_used_at: string | null };
/** A server action the settings page passes in (app/(dashboard)/dashboard/settings/actions.ts). */
type Action<Input, Data> = (input: Input) => Promise<ActionResult<Data>>;
// The browser library's JSON types declare no index signature for the extension outputs the
// actions' schemas accept as a record: the same JSON, typed for the action.
type AssertionInput = z.input<typeof passkeyAssertion>;
type AttestationInput = z.input<typeof registerPasskeyBody>["response"];
/** The fresh proof the actions take: the password, plus a code or a passkey assertion when two-factor authentication is on. */
type Proof = { password?: string; code?: string; passkey?: AssertionInput };

/** Thrown inside a flow to show an action's refusal (its message and field errors). */
class Refused extends Error {
  constructor(readonly details: Record<string, string[]>) {
    super("refused");
  }
}

async function unwrap<T>(result: ActionResult<T>): Promise<T> {
  if (result.ok) return result.data;
  throw Object.assign(new Refused(result.error.details ?? {}), { message: result.error.message });
}

const browserRefusal = (error: unknown, closed: string) =>
  error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError") ? closed : error instanceof Error ? error.message : String(error);

/**
 * Passkeys as a second factor: add one (password, plus the current second factor when one is on:
 * a code, or, left empty, one of the passkeys), list them, remove one (password and a fresh factor).
 */
export function PasskeySettings({
  passkeys,
  twoFactorOn,
  registrationOptions,
  register,
  proofOptions,
  remove,
}: {
  passkeys: Passkey[];
  twoFactorOn: boolean;
  registrationOptions: Action<Proof, unknown>;
  register: Action<z.input<typeof registerPasskeyBody>, Awaited<ReturnType<typeof finishPasskeyRegistration>>>;
  proofOptions: Action<Record<string, never>, unknown>;
  remove: Action<Proof & { id: number }, Awaited<ReturnType<typeof removePasskey>>>;
}) {
  const t = useTranslations("dashboard.shared.passkeys");
  const ui = useTranslations("dashboard.ui");
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<{ form: string; message: string; details: Record<string, string[]> } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  /** The fresh proof: password and code, or password and an assertion of one of the passkeys when the code is left empty. */
  async function proofFrom(form: FormData): Promise<Proof> {
    const password = String(form.get("password") ?? "");
    const code = String(form.get("code") ?? "").trim();
    if (!twoFactorOn || code || passkeys.length === 0) return { password, ...(code ? { code } : {}) };
    const options = (await unwrap(await proofOptions({}))) as PublicKeyCredentialRequestOptionsJSON;
    return { password, passkey: (await startAuthentication({ optionsJSON: options })) as unknown as AssertionInput };
  }

  async function run(formName: string, event: React.FormEvent<HTMLFormElement>, flow: (form: FormData) => Promise<string>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(formName);
    setError(null);
    setDone(null);
    try {
      setDone(await flow(form));
      router.refresh();
    } catch (failure) {
      setError({
        form: formName,
        message: failure instanceof Refused ? failure.message : browserRefusal(failure, t("promptClosed")),
        details: failure instanceof Refused ? failure.details : {},
      });
    } finally {
      setPending(null);
    }
  }

  const errorsOf = (formName: string, field: string) => (error?.form === formName ? (error.details[field] ?? []) : []);
  const failureOf = (formName: string) => (error?.form === formName ? <Alert kind="error">{error.message}</Alert> : null);

  const proofFields = (prefix: string, formName: string) => (
    <div className={styles.row}>
      <Field
        id={`${prefix}-password`}
        label={t("password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={errorsOf(formName, "password")}
      />
      {twoFactorOn ? (
        <Field
          id={`${prefix}-code`}
          label={t("code")}
          name="code"
          autoComplete="one-time-code"
          maxLength={64}
          errors={errorsOf(formName, "code")}
          hint={passkeys.length ? t("codeHint") : undefined}
        />
      ) : null}
    </div>
  );

  return (
    <>
      {passkeys.length ? (
        <ul aria-label={t("list")}>
          {passkeys.map((p) => (
            <li key={p.id}>
              <strong>{p.name}</strong> —{" "}
              {p.last_used_at
                ? t("addedUsed", { added: formatDate(p.created_at), used: formatDate(p.last_used_at) })
                : t("addedUnused", { added: formatDate(p.created_at) })}
              <form
                aria-label={t("removeLabel", { name: p.name })}
                onSubmit={(event) =>
                  run(`remove-${p.id}`, event, async (form) => {
                    const outcome = await unwrap(await remove({ id: p.id, ...(await proofFrom(form)) }));
                    return outcome.two_factor_off ? t("removedOff") : t("removed");
                  })
                }
              >
                {proofFields(`remove-${p.id}`, `remove-${p.id}`)}
                {failureOf(`remove-${p.id}`)}
                <Button type="submit" variant="danger" small disabled={pending !== null}>
                  {pending === `remove-${p.id}` ? ui("working") : t("remove")}
                </Button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("none")}</p>
      )}
      {done ? <Alert kind="ok">{done}</Alert> : null}
      {recoveryCodes?.length ? (
        <div role="status" className={`${styles.alert} ${styles.alertWarn}`} data-testid="passkey-recovery-codes">
          <p style={{ marginTop: 0 }}>
            <strong>{t("codesTitle")}</strong> {t("codesExplain")}
          </p>
          <pre>{recoveryCodes.join("\n")}</pre>
          <CopyButton text={recoveryCodes.join("\n")} label={t("copyCodes")} />
        </div>
      ) : null}
      <form
        aria-label={t("add")}
        onSubmit={(event) =>
          run("add", event, async (form) => {
            const options = (await unwrap(await registrationOptions(await proofFrom(form)))) as PublicKeyCredentialCreationOptionsJSON;
            const response = (await startRegistration({ optionsJSON: options })) as unknown as AttestationInput;
            const added = await unwrap(await register({ name: String(form.get("name") ?? "").trim() || t("defaultName"), response }));
            setRecoveryCodes(added.recovery_codes);
            return t("added", { name: added.passkey.name });
          })
        }
      >
        <Field id="passkey-name" label={t("name")} name="name" defaultValue={t("defaultName")} maxLength={64} errors={errorsOf("add", "name")} />
        {proofFields("passkey-add", "add")}
        {failureOf("add")}
        <Button type="submit" disabled={pending !== null}>
          {pending === "add" ? t("waiting") : t("add")}
        </Button>
      </form>
    </>
  );
}

function Field({
  id,
  label,
  name,
  errors,
  hint,
  ...input
}: { id: string; label: string; name: string; errors: string[]; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={errors.length > 0 || undefined} aria-describedby={errors.length ? `${id}-err` : undefined} {...input} />
      {hint ? <span className={styles.hint}>{hint}</span> : null}
      {errors.length ? (
        <span id={`${id}-err`} className={styles.fieldError}>
          {errors.join(" ")}
        </span>
      ) : null}
    </div>
  );
}
