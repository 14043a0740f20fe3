"use client";

import { usePathname, useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { ActionForm } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import { CreatedCard } from "./created-card";

/** The link builder's form, ending with a success card (the link to open or copy, its QR); the list behind it highlights the new link (`?created=`). */
export function CreateLinkForm({ action, children }: { action: (form: FormData) => Promise<ActionResult<unknown>>; children: ReactNode }) {
  const t = useTranslations("dashboard.shared.createLink");
  const router = useRouter();
  const pathname = usePathname();
  return (
    <ActionForm
      action={action}
      submitLabel={t("submit")}
      label={t("label")}
      onSuccess={(data) => router.replace(`${pathname}?created=${encodeURIComponent((data as { id: string }).id)}`, { scroll: false })}
      renderResult={(data) => {
        const link = data as { id: string; title: string; url: string; qr_svg: string };
        return <CreatedCard testId="created-link" heading={t("created", { title: link.title })} url={link.url} openLabel={t("open")} qrSvg={link.qr_svg} />;
      }}
    >
      {children}
    </ActionForm>
  );
}
