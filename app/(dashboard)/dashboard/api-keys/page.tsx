import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { Badge, Card } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CreateApiKeyForm } from "@/components/dashboard/create-api-key-form";
import { formatDate } from "@/components/dashboard/format";
import { serializeApiKey } from "@/lib/auth/api-keys";
import { listApiKeys } from "@/lib/auth/queries";
import { permissionPresets } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { roleAllows, type Role } from "@/lib/auth/roles";
import { listMembers } from "@/lib/members/members";
import { hasEnabledSecondFactor } from "@/lib/auth/second-factor";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys · Dashboard" };

const presetLabels: Record<keyof typeof permissionPresets, string> = {
  read_only: "Read only",
  create_payments: "Create payments (read + create_payments)",
  manage_webhooks: "Manage webhooks (read + manage_webhooks)",
  full_access: "Full access",
};

/** The presets a key made by this role may have: a key carries at most its maker's permissions (issue 49). */
function presetsWithin(role: Role): Array<{ value: string; label: string }> {
  return (Object.keys(presetLabels) as Array<keyof typeof permissionPresets>)
    .filter((preset) => permissionPresets[preset].every((p) => roleAllows(role, p)))
    .map((preset) => ({ value: preset, label: presetLabels[preset] }));
}

type ApiKeyJson = ReturnType<typeof serializeApiKey>;

const columns = (now: number, makers: Map<number, string>): Array<Column<ApiKeyJson>> => [
  { header: "Name", cell: "name" },
  { header: "Prefix", cell: (k) => <code>{k.prefix}…</code> },
  { header: "Permissions", cell: (k) => k.permissions.join(", ") },
  { header: "Made by", cell: (k) => (k.created_by === null ? "a removed login" : (makers.get(k.created_by) ?? `user ${k.created_by}`)) },
  { header: "Last used", cell: (k) => (k.last_used_at ? formatDate(k.last_used_at) : "never") },
  { header: "Expires", cell: (k) => (k.expires_at ? formatDate(k.expires_at) : "never") },
  { header: "State", cell: (k) => <Badge status={k.revoked ? "revoked" : k.expires_at !== null && Date.parse(k.expires_at) <= now ? "expired" : "active"} /> },
  {
    header: "Actions",
    hideHeader: true,
    cell: (k) =>
      k.revoked ? null : (
        <ActionForm
          action={revokeApiKeyAction}
          hiddenFields={{ id: k.id }}
          submitLabel="Revoke"
          variant="danger"
          small
          confirmText={`Revoke the key “${k.name}” (${k.prefix}…)? Requests using it will be refused at once. This cannot be undone.`}
          label={`Revoke ${k.name}`}
        />
      ),
  },
];

export default async function ApiKeysPage() {
  const merchant = await requirePageMerchant();
  if (!roleAllows(merchant.role, "manage_api_keys")) {
    return (
      <>
        <h1>API keys</h1>
        <p>Your role in this account ({merchant.role}) does not include API keys. Ask an owner or admin.</p>
      </>
    );
  }
  const db = await getDb();
  const { rows } = await listApiKeys(db, merchant.merchantId, 100, 0);
  const twoFactor = await hasEnabledSecondFactor(db, merchant.userId);
  const makers = new Map((await listMembers(db, merchant.merchantId)).map((m) => [m.user_id, m.username]));
  return (
    <>
      <h1>API keys</h1>
      <p>
        Your server sends a key as <code>Authorization: Bearer sk_…</code>. Keys cannot manage other keys or your account.
      </p>
      <Card title="Create a key">
        <CreateApiKeyForm action={createApiKeyAction} askCode={twoFactor} presets={presetsWithin(merchant.role)} />
      </Card>
      <h2>Your keys</h2>
      <DataTable
        caption="API keys"
        columns={columns(requestTime().getTime(), makers)}
        rows={rows.map(serializeApiKey)}
        rowKey={(k) => k.id}
        rowData={(k) => ({ "data-key-prefix": k.prefix })}
        empty="No keys yet."
      />
    </>
  );
}
