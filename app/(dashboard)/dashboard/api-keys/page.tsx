import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.apiKeys"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.apiKeys">>>;

const presetNames = ["read_only", "create_payments", "manage_webhooks", "full_access"] as const satisfies ReadonlyArray<keyof typeof permissionPresets>;

/** The presets a key made by this role may have: a key carries at most its maker's permissions (issue 49). */
function presetsWithin(t: T, role: Role): Array<{ value: string; label: string }> {
  return presetNames
    .filter((preset) => permissionPresets[preset].every((p) => roleAllows(role, p)))
    .map((preset) => ({ value: preset, label: t(`presets.${preset}`) }));
}

type ApiKeyJson = ReturnType<typeof serializeApiKey>;

const columns = (t: T, now: number, makers: Map<number, string>): Array<Column<ApiKeyJson>> => [
  { header: t("name"), cell: "name" },
  { header: t("prefix"), cell: (k) => <code>{k.prefix}…</code> },
  { header: t("permissions"), cell: (k) => k.permissions.join(", ") },
  { header: t("madeBy"), cell: (k) => (k.created_by === null ? t("removedLogin") : (makers.get(k.created_by) ?? t("user", { id: String(k.created_by) }))) },
  { header: t("lastUsed"), cell: (k) => (k.last_used_at ? formatDate(k.last_used_at) : t("never")) },
  { header: t("expires"), cell: (k) => (k.expires_at ? formatDate(k.expires_at) : t("never")) },
  {
    header: t("state"),
    cell: (k) => <Badge status={k.revoked ? "revoked" : k.expires_at !== null && Date.parse(k.expires_at) <= now ? "expired" : "active"} />,
  },
  {
    header: t("actions"),
    hideHeader: true,
    cell: (k) =>
      k.revoked ? null : (
        <ActionForm
          action={revokeApiKeyAction}
          hiddenFields={{ id: k.id }}
          submitLabel={t("revoke")}
          variant="danger"
          small
          confirmText={t("revokeConfirm", { name: k.name, prefix: k.prefix })}
          label={t("revokeLabel", { name: k.name })}
        />
      ),
  },
];

export default async function ApiKeysPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.apiKeys");
  if (!roleAllows(merchant.role, "manage_api_keys")) {
    return (
      <>
        <h1>{t("heading")}</h1>
        <p>{t("noRole", { role: merchant.role })}</p>
      </>
    );
  }
  const db = await getDb();
  const { rows } = await listApiKeys(db, merchant.merchantId, 100, 0);
  const twoFactor = await hasEnabledSecondFactor(db, merchant.userId);
  const makers = new Map((await listMembers(db, merchant.merchantId)).map((m) => [m.user_id, m.username]));
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t.rich("intro", { code: (chunks) => <code>{chunks}</code> })}</p>
      <Card title={t("create")}>
        <CreateApiKeyForm action={createApiKeyAction} askCode={twoFactor} presets={presetsWithin(t, merchant.role)} />
      </Card>
      <h2>{t("yours")}</h2>
      <DataTable
        caption={t("heading")}
        columns={columns(t, requestTime().getTime(), makers)}
        rows={rows.map(serializeApiKey)}
        rowKey={(k) => k.id}
        rowData={(k) => ({ "data-key-prefix": k.prefix })}
        empty={t("empty")}
      />
    </>
  );
}
