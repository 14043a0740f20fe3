import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatDate } from "@/components/dashboard/format";
import { listSessions, serializeLoginSession } from "@/lib/auth/login-sessions";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { getDb } from "@/lib/db/client";
import { revokeSessionAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.sessions"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.sessions">>>;

type SessionJson = ReturnType<typeof serializeLoginSession>;

const columns = (t: T): Array<Column<SessionJson>> => [
  { header: t("device"), cell: (s) => s.device ?? t("unknownDevice") },
  { header: t("kind"), cell: (s) => (s.kind === "dashboard" ? t("dashboard") : t("apiLogin")) },
  {
    header: t("address"),
    cell: (s) =>
      s.last_seen_ip && s.last_seen_ip !== s.client_ip ? t("signedInFrom", { ip: s.last_seen_ip, from: s.client_ip ?? "?" }) : (s.client_ip ?? "—"),
    mono: true,
  },
  { header: t("signedIn"), cell: (s) => formatDate(s.created_at) },
  { header: t("lastSeen"), cell: (s) => formatDate(s.last_seen_at) },
  { header: t("state"), cell: (s) => (s.current ? <Badge status="active">{t("thisSession")}</Badge> : null) },
  {
    header: t("actions"),
    hideHeader: true,
    cell: (s) => (
      <ActionForm
        action={revokeSessionAction}
        hiddenFields={{ id: s.id }}
        submitLabel={s.current ? t("signOut") : t("revoke")}
        variant="danger"
        small
        confirmText={s.current ? t("signOutConfirm") : t("revokeConfirm", { device: s.device ?? t("anUnknownDevice") })}
        label={t("revokeLabel", { device: s.device ?? t("anUnknownDevice") })}
      />
    ),
  },
];

export default async function SessionsPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.sessions");
  const sessions = await listSessions(await getDb(), merchant.userId);
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>
      <DataTable
        caption={t("caption")}
        columns={columns(t)}
        rows={sessions.map((s) => serializeLoginSession(s, merchant.familyId ?? null))}
        rowKey={(s) => s.id}
        rowData={(s) => ({ "data-session-kind": s.kind, "data-current": String(s.current) })}
        empty={t("empty")}
      />
    </>
  );
}
