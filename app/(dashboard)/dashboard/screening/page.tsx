import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Screening · Dashboard" };

type Held = Awaited<ReturnType<typeof loadScreeningOverview>>["held"][number];

const policyOptions = [
  { value: "hold", label: "Hold: no payment.confirmed until an owner or admin releases it" },
  { value: "record", label: "Record: flag it, the payment goes on" },
  { value: "refund", label: "Refund: never confirmed; refund it" },
];

export default async function ScreeningPage() {
  const merchant = await requirePageMerchant();
  const overview = await loadScreeningOverview(await getDb(), merchant.merchantId);
  const mayManage = roleAllows(merchant.role, "manage_account");
  const columns: Array<Column<Held>> = [
    { header: "Order", cell: (h) => <Link href={`/dashboard/orders/${h.orderId}`}>{h.orderId}</Link>, mono: true },
    { header: "Amount", cell: (h) => h.amount },
    { header: "Payer", cell: (h) => h.payer, mono: true },
    { header: "Why", cell: (h) => `${h.matchedBy === "sanctions_list" ? "Sanctions list" : "Screening provider"}: ${h.reason}` },
    { header: "Flagged", cell: (h) => formatDate(h.flaggedAt) },
    {
      header: "Actions",
      hideHeader: true,
      cell: (h) =>
        h.action === "hold" && mayManage ? (
          <ActionForm
            action={releaseHeldPaymentAction}
            hiddenFields={{ order_id: h.orderId }}
            submitLabel="Release"
            small
            variant="danger"
            confirmText={`Release ${h.orderId}? It will be confirmed once it has its confirmations.`}
            label={`Release ${h.orderId}`}
          />
        ) : h.action === "refund" ? (
          "Refund it"
        ) : null,
    },
  ];
  return (
    <>
      <h1>Screening</h1>
      <p>
        Every payer and every refund destination is checked against the sanctions list the operator loaded
        {overview.list ? ` (${overview.list.source}, published ${overview.list.publishedOn}, ${overview.list.addresses} addresses)` : ""}.{" "}
        {overview.list ? null : <strong>No list is loaded on this server: nothing is screened against one.</strong>}
      </p>
      <Card>
        <h2>Held payments</h2>
        <DataTable caption="Held payments" columns={columns} rows={overview.held} rowKey={(h) => h.id} empty="No payment is held." />
      </Card>
      <Card>
        <h2>When a payer fails screening</h2>
        {mayManage ? (
          <ActionForm action={setScreeningPolicyAction} submitLabel="Save" successMessage="Saved." resetOnSuccess={false} label="Screening policy">
            <SelectField label="Policy" name="on_match" options={policyOptions} defaultValue={overview.policy} />
          </ActionForm>
        ) : (
          <p>{policyOptions.find((o) => o.value === overview.policy)?.label}</p>
        )}
      </Card>
    </>
  );
}
