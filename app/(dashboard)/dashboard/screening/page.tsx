import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { Card } from "@/components/ui";
import { ActionForm, SelectField } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatDate } from "@/components/dashboard/format";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { loadScreeningOverview } from "@/lib/dashboard/screening";
import { releaseHeldPaymentAction, setScreeningPolicyAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.screening"))("metaTitle") };
}

type Held = Awaited<ReturnType<typeof loadScreeningOverview>>["held"][number];

export default async function ScreeningPage() {
  const merchant = await requirePageMerchant();
  const overview = await loadScreeningOverview(await getDb(), merchant.merchantId);
  const mayManage = roleAllows(merchant.role, "manage_account");
  const t = await getTranslations("dashboard.screening");
  const policyOptions = (["hold", "record", "refund"] as const).map((value) => ({ value, label: t(`policies.${value}`) }));
  const columns: Array<Column<Held>> = [
    { header: t("order"), cell: (h) => <Link href={`/dashboard/orders/${h.orderId}`}>{h.orderId}</Link>, mono: true },
    { header: t("amount"), cell: (h) => h.amount },
    { header: t("payer"), cell: (h) => h.payer, mono: true },
    { header: t("why"), cell: (h) => t(h.matchedBy === "sanctions_list" ? "sanctionsList" : "provider", { reason: h.reason }) },
    { header: t("flagged"), cell: (h) => formatDate(h.flaggedAt) },
    {
      header: t("actions"),
      hideHeader: true,
      cell: (h) =>
        h.action === "hold" && mayManage ? (
          <ActionForm
            action={releaseHeldPaymentAction}
            hiddenFields={{ order_id: h.orderId }}
            submitLabel={t("release")}
            small
            variant="danger"
            confirmText={t("releaseConfirm", { order: h.orderId })}
            label={t("releaseLabel", { order: h.orderId })}
          />
        ) : h.action === "refund" ? (
          t("refundIt")
        ) : null,
    },
  ];
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>
        {overview.list
          ? t("introList", { source: overview.list.source, published: overview.list.publishedOn, addresses: String(overview.list.addresses) })
          : t("intro")}{" "}
        {overview.list ? null : <strong>{t("noList")}</strong>}
      </p>
      <Card>
        <h2>{t("held")}</h2>
        <DataTable caption={t("held")} columns={columns} rows={overview.held} rowKey={(h) => h.id} empty={t("noneHeld")} />
      </Card>
      <Card>
        <h2>{t("whenFails")}</h2>
        {mayManage ? (
          <ActionForm action={setScreeningPolicyAction} submitLabel={t("save")} successMessage={t("saved")} resetOnSuccess={false} label={t("policyLabel")}>
            <SelectField label={t("policy")} name="on_match" options={policyOptions} defaultValue={overview.policy} />
          </ActionForm>
        ) : (
          <p>{policyOptions.find((o) => o.value === overview.policy)?.label}</p>
        )}
      </Card>
    </>
  );
}
