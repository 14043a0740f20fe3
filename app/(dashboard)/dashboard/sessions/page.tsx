import type { Metadata } from "next";
import { Badge } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatDate } from "@/components/dashboard/format";
import { listSessions, serializeLoginSession } from "@/lib/auth/login-sessions";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { getDb } from "@/lib/db/client";
import { revokeSessionAction } from "./actions";

export const metadata: Metadata = { title: "Sessions · Dashboard" };

type SessionJson = ReturnType<typeof serializeLoginSession>;

const columns: Array<Column<SessionJson>> = [
  { header: "Device", cell: (s) => s.device ?? "Unknown device" },
  { header: "Kind", cell: (s) => (s.kind === "dashboard" ? "Dashboard" : "API login") },
  {
    header: "Address",
    cell: (s) => (s.last_seen_ip && s.last_seen_ip !== s.client_ip ? `${s.last_seen_ip} (signed in from ${s.client_ip ?? "?"})` : (s.client_ip ?? "—")),
    mono: true,
  },
  { header: "Signed in", cell: (s) => formatDate(s.created_at) },
  { header: "Last seen", cell: (s) => formatDate(s.last_seen_at) },
  { header: "State", cell: (s) => (s.current ? <Badge status="active">This session</Badge> : null) },
  {
    header: "Actions",
    hideHeader: true,
    cell: (s) => (
      <ActionForm
        action={revokeSessionAction}
        hiddenFields={{ id: s.id }}
        submitLabel={s.current ? "Sign out" : "Revoke"}
        variant="danger"
        small
        confirmText={s.current ? "Sign out of this session?" : `Revoke the session on ${s.device ?? "an unknown device"}? It is signed out at once.`}
        label={`Revoke the session on ${s.device ?? "an unknown device"}`}
      />
    ),
  },
];

export default async function SessionsPage() {
  const merchant = await requirePageMerchant();
  const sessions = await listSessions(await getDb(), merchant.userId);
  return (
    <>
      <h1>Sessions</h1>
      <p>
        Where this account is signed in: the dashboard, and API logins with their refresh tokens. Revoke anything you do not recognise; then change your
        password.
      </p>
      <DataTable
        caption="Active sessions"
        columns={columns}
        rows={sessions.map((s) => serializeLoginSession(s, merchant.familyId ?? null))}
        rowKey={(s) => s.id}
        rowData={(s) => ({ "data-session-kind": s.kind, "data-current": String(s.current) })}
        empty="No active sessions."
      />
    </>
  );
}
