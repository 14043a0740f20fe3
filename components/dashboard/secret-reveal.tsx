"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";

type SecretAction = (input: { id: string }) => Promise<ActionResult<{ secret: string }>>;

/** Shows a signing secret only on request (reveal), and rotates it after a confirmation. */
export function SecretReveal({ id, reveal, rotate }: { id: string; reveal: SecretAction; rotate: SecretAction }) {
  const t = useTranslations("dashboard.shared");
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: SecretAction) {
    setBusy(true);
    setError(null);
    const result = await action({ id });
    setBusy(false);
    if (result.ok) setSecret(result.data.secret);
    else setError(result.error.message);
  }

  return (
    <div>
      {secret ? (
        <p>
          <code data-testid="endpoint-secret">{secret}</code>{" "}
          <CopyButton
            text={secret}
            label={t("secret.copy")}
            words={{ copied: t("copy.copied"), copiedStatus: t("copy.copiedStatus"), failed: t("copy.failed") }}
          />
        </p>
      ) : null}
      <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
        {secret ? (
          <Button type="button" variant="secondary" small onClick={() => setSecret(null)}>
            {t("secret.hide")}
          </Button>
        ) : (
          <Button type="button" variant="secondary" small disabled={busy} onClick={() => run(reveal)}>
            {t("secret.reveal")}
          </Button>
        )}
        <Button
          type="button"
          variant="secondary"
          small
          disabled={busy}
          onClick={() => {
            if (window.confirm(t("secret.rotateConfirm"))) void run(rotate);
          }}
        >
          {t("secret.rotate")}
        </Button>
      </div>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </div>
  );
}
