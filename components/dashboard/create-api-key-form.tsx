"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect } from "react";
import { useTranslations } from "next-intl";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";
import styles from "@/components/ui/ui.module.css";

type Created = { key: string; name: string; prefix: string };

/** Create-key form; on success shows the secret once, with a copy button and a warning. */
export function CreateApiKeyForm({
  action,
  presets,
  askCode = false,
}: {
  action: (form: FormData) => Promise<ActionResult<Created>>;
  presets: Array<{ value: string; label: string }>;
  /** Two-factor authentication is on: a fresh code is asked for. */
  askCode?: boolean;
}) {
  const t = useTranslations("dashboard.shared");
  const router = useRouter();
  const [result, run, pending] = useActionState<ActionResult<Created> | null, FormData>((_p, form) => action(form), null);
  useEffect(() => {
    if (result?.ok) router.refresh();
  }, [result, router]);
  const errors = (name: string) => (result && !result.ok ? (result.error.details?.[name] ?? []) : []);

  return (
    <>
      {result?.ok ? (
        <div role="status" className={`${styles.alert} ${styles.alertWarn}`} data-testid="new-api-key">
          <p style={{ marginTop: 0 }}>{t.rich("apiKey.copyNow", { name: result.data.name, strong: (chunks) => <strong>{chunks}</strong> })}</p>
          <p>
            <code data-testid="api-key-secret">{result.data.key}</code>
          </p>
          <CopyButton
            text={result.data.key}
            label={t("apiKey.copy")}
            words={{ copied: t("copy.copied"), copiedStatus: t("copy.copiedStatus"), failed: t("copy.failed") }}
          />
        </div>
      ) : null}
      <form
        aria-label={t("apiKey.form")}
        onSubmit={(event) => {
          // By hand: React's form action would reset the fields even when creation fails.
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          startTransition(() => run(form));
        }}
      >
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor="key-name">{t("apiKey.name")}</label>
            <input
              id="key-name"
              name="name"
              required
              maxLength={100}
              placeholder={t("apiKey.namePlaceholder")}
              aria-describedby={errors("name").length ? "key-name-err" : undefined}
            />
            {errors("name").length ? (
              <span id="key-name-err" className={styles.fieldError}>
                {errors("name").join(" ")}
              </span>
            ) : null}
          </div>
          <div className={styles.field}>
            <label htmlFor="key-preset">{t("apiKey.permissions")}</label>
            <select id="key-preset" name="preset" defaultValue="create_payments">
              {presets.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor="key-expiry">{t("apiKey.expires")}</label>
            <input id="key-expiry" name="expires_at" type="date" aria-describedby="key-expiry-hint" />
            <span id="key-expiry-hint" className={styles.hint}>
              {t("apiKey.expiresHint")}
            </span>
            {errors("expires_at").length ? <span className={styles.fieldError}>{errors("expires_at").join(" ")}</span> : null}
          </div>
          {askCode ? (
            <div className={styles.field}>
              <label htmlFor="key-code">{t("apiKey.code")}</label>
              <input id="key-code" name="code" required maxLength={64} autoComplete="one-time-code" aria-describedby="key-code-hint" />
              <span id="key-code-hint" className={styles.hint}>
                {t("apiKey.codeHint")}
              </span>
              {errors("code").length ? <span className={styles.fieldError}>{errors("code").join(" ")}</span> : null}
            </div>
          ) : null}
        </div>
        {result && !result.ok ? <Alert kind="error">{result.error.message}</Alert> : null}
        <Button type="submit" disabled={pending}>
          {pending ? t("apiKey.creating") : t("apiKey.create")}
        </Button>
      </form>
    </>
  );
}
