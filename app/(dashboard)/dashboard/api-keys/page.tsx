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
import { roleAllows } from "@/lib/auth/roles";
import { hasEnabledSecondFactor } from "@/lib/auth/second-factor";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys · Dashboard" };

const presetLabels: Record<keyof typeof permissionPresets, string> = {
  read_only: "Read only",
  create_payments: "Create payments (read + create_payments)",
  manage_webhooks: "Manage webhooks (read + manage_webhooks)",
  full_access: "Full access",
};

type ApiKeyJson = ReturnType<typeof serializeApiKey>;

const columns = (now: number): Array<Column<ApiKeyJson>> => [
  { header: "Name", cell: "name" },
  { header: "Prefix", cell: (k) => <code>{k.prefix}…</code> },
  { header: "Permissions", cell: (k) => k.permissions.join(", ") },
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
  return (
    <>
      <h1>API keys</h1>
      <p>
        Your server sends a key as <code>Authorization: Bearer sk_…</code>. Keys cannot manage other keys or your account.
      </p>
      <Card title="Create a key">
        <CreateApiKeyForm action={createApiKeyAction} askCode={twoFactor} presets={Object.entries(presetLabels).map(([value, label]) => ({ value, label }))} />
      </Card>
      <h2>Your keys</h2>
      <DataTable caption="API keys" columns={columns(requestTime().getTime())} rows={rows.map(serializeApiKey)} rowKey={(k) => k.id} rowData={(k) => ({ "data-key-prefix": k.prefix })} empty="No keys yet." />
    </>
  );
}
