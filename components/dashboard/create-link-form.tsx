"use client";

import type { ReactNode } from "react";
import { Alert } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/auth/authed-action";

/** The link builder's form, ending with the new link to open or copy rather than JSON. */
export function CreateLinkForm({ action, children }: { action: (form: FormData) => Promise<ActionResult<unknown>>; children: ReactNode }) {
  return (
    <ActionForm
      action={action}
      submitLabel="Create link"
      label="Create a payment link"
      renderResult={(data) => {
        const link = data as { id: string; url: string };
        return (
          <Alert kind="ok">
            <span data-testid="created-link">
              Link created:{" "}
              <a href={link.url} target="_blank" rel="noreferrer" className="mono">
                {link.url}
              </a>{" "}
              <CopyButton text={link.url} label="Copy link" />
            </span>
          </Alert>
        );
      }}
    >
      {children}
    </ActionForm>
  );
}
