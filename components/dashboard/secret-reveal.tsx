"use client";

import { useState } from "react";
import { Alert, Button } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";

type SecretAction = (input: { id: string }) => Promise<ActionResult<{ secret: string }>>;

/** Shows a signing secret only on request (reveal), and rotates it after a confirmation. */
export function SecretReveal({ id, reveal, rotate }: { id: string; reveal: SecretAction; rotate: SecretAction }) {
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
          <code data-testid="endpoint-secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
        </p>
      ) : null}
      <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
        {secret ? (
          <Button type="button" variant="secondary" small onClick={() => setSecret(null)}>
            Hide secret
          </Button>
        ) : (
          <Button type="button" variant="secondary" small disabled={busy} onClick={() => run(reveal)}>
            Reveal secret
          </Button>
        )}
        <Button
          type="button"
          variant="secondary"
          small
          disabled={busy}
          onClick={() => {
            if (window.confirm("Rotate this endpoint's secret? The old secret keeps signing for 24 hours so your receiver can switch.")) void run(rotate);
          }}
        >
          Rotate secret
        </Button>
      </div>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </div>
  );
}
