import type { Metadata } from "next";
import { Badge, Button, Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { subscriptionStatuses, type SubscriptionStatus } from "@/lib/db/schema/subscriptions";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { subscriptionFactoryFor } from "@/lib/subscriptions/factory";
import { serializePlan } from "@/lib/subscriptions/plans";
import { listMerchantPlans } from "@/lib/subscriptions/queries";
import { listSubscriptions } from "@/lib/subscriptions/subscriptions";
import { createPlanAction, createSubscriptionAction } from "./actions";

export const metadata: Metadata = { title: "Subscriptions · Dashboard" };

const pageSize = 50;

type Row = Awaited<ReturnType<typeof listSubscriptions>>["rows"][number];
type Plan = ReturnType<typeof serializePlan>;

const columns: Array<Column<Row>> = [
  { header: "Subscription", cell: (s) => <a href={`/dashboard/subscriptions/${s.id}`}>{s.id}</a>, mono: true },
  { header: "Plan", cell: (s) => s.plan, mono: true },
  { header: "Status", cell: (s) => <Badge status={s.status}>{s.status.replace("_", " ")}</Badge> },
  { header: "Per period", cell: (s) => `${s.max_amount} ${s.currency} / ${s.interval_days} d`, align: "end" },
  { header: "Charged", cell: (s) => String(s.periods_charged), align: "end" },
  { header: "Customer", cell: (s) => s.customer_address, mono: true },
  { header: "Created", cell: (s) => s.created_at.slice(0, 16).replace("T", " ") },
];

const planColumns: Array<Column<Plan>> = [
  { header: "Plan", cell: (p) => `${p.name} (${p.id})` },
  { header: "Price", cell: (p) => (p.amount ? `${p.amount} ${p.currency}` : `${p.price_amount} ${p.price_currency} (≤ ${p.max_amount} ${p.currency})`) },
  { header: "Every", cell: (p) => `${p.interval_days} days`, align: "end" },
  { header: "Trial", cell: (p) => (p.trial_days ? `${p.trial_days} days` : "none"), align: "end" },
  { header: "Periods", cell: (p) => (p.periods === null ? "until canceled" : String(p.periods)), align: "end" },
  { header: "Chain", cell: (p) => p.blockchain },
];

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

// /dashboard/subscriptions – subscriptions (filtered by status), plans, and the forms that create them
export default async function SubscriptionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const params = await searchParams;
  const status = (subscriptionStatuses as readonly string[]).includes(one(params.status) ?? "") ? (one(params.status) as SubscriptionStatus) : undefined;
  const plan = one(params.plan);
  const pageNumber = Math.max(1, Number(one(params.page)) || 1);
  const db = await getDb();
  const [{ rows, count }, plans] = await Promise.all([
    listSubscriptions(db, merchant.merchantId, { status, plan }, { limit: pageSize, offset: (pageNumber - 1) * pageSize }),
    listMerchantPlans(db, merchant.merchantId, { limit: 200, offset: 0 }),
  ]);
  const planViews = plans.rows.map(serializePlan);
  const tokens = listBlockchains()
    .filter((c) => subscriptionFactoryFor(c))
    .flatMap((c) => c.tokens.filter((t) => t.address).map((t) => ({ value: `${c.slug}:${t.symbol}`, label: `${t.symbol} on ${c.name}` })));
  const linkTo = (p: number) => {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    if (plan) q.set("plan", plan);
    q.set("page", String(p));
    return `/dashboard/subscriptions?${q.toString()}`;
  };
  const exportQuery = new URLSearchParams(status ? { status } : {}).toString();

  return (
    <>
      <h1>Subscriptions</h1>
      <p>
        The customer approves once from the hosted subscribe page; each period the gateway charges at most the plan&apos;s amount from their wallet straight to
        yours. <a href="/docs/subscriptions">How subscriptions work</a>.
      </p>
      <Row>
        <CreateDialog openLabel="Create a plan" title="Create a subscription plan">
          {tokens.length === 0 ? (
            <p>No blockchain has a subscription contract yet.</p>
          ) : (
            <ActionForm action={createPlanAction} submitLabel="Create plan" successMessage="Plan created." label="Create a subscription plan">
              <Field label="Name" name="name" required maxLength={200} placeholder="Pro, monthly" hint="Shown to the customer" />
              <Row>
                <SelectField label="Token" name="token" options={tokens} defaultValue={tokens.find((t) => t.value.endsWith(":USDC"))?.value} />
                <Field label="Amount per period" name="amount" required inputMode="decimal" placeholder="9.99" />
              </Row>
              <Row>
                <Field label="Period (days)" name="interval_days" type="number" min={1} max={366} required defaultValue={30} />
                <Field label="Free trial (days)" name="trial_days" type="number" min={0} max={366} defaultValue={0} />
                <Field label="Periods" name="periods" type="number" min={1} max={10000} hint="Empty: until canceled" />
              </Row>
              <Row>
                <Field label="Retry a failed charge for (days)" name="grace_days" type="number" min={0} max={365} defaultValue={3} />
                <Field label="Cancel after past due for (days)" name="past_due_days" type="number" min={0} max={365} defaultValue={7} />
              </Row>
            </ActionForm>
          )}
        </CreateDialog>
        {planViews.some((p) => p.status === "active") && (
          <CreateDialog openLabel="Create a subscription" title="Create a subscription">
            <p>Fixes the terms for one customer&apos;s wallet; send them the subscribe page it gives, where they approve once.</p>
            <ActionForm
              action={createSubscriptionAction}
              submitLabel="Create subscription"
              label="Create a subscription"
              renderResult={(data) => {
                const d = data as { id: string; subscribe_path: string };
                return (
                  <p role="status">
                    Created {d.id}: send the customer <a href={d.subscribe_path}>{d.subscribe_path}</a>
                  </p>
                );
              }}
            >
              <SelectField
                label="Plan"
                name="plan"
                options={planViews.filter((p) => p.status === "active").map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
              />
              <Field label="Customer wallet" name="customer_address" required placeholder="0x…" hint="The only wallet ever charged" />
              <Field label="Customer e-mail (optional)" name="customer_email" type="email" />
            </ActionForm>
          </CreateDialog>
        )}
      </Row>

      <FilterForm label="Filter subscriptions" clearHref="/dashboard/subscriptions">
        <FilterSelect label="Status" name="status" options={subscriptionStatuses} value={status} />
        <FilterSelect label="Plan" name="plan" options={planViews.map((p) => ({ value: p.id, label: p.name }))} value={plan} />
      </FilterForm>
      <p aria-live="polite">
        {count} subscription{count === 1 ? "" : "s"}
      </p>
      <DataTable caption="Subscriptions" columns={columns} rows={rows} rowKey={(s) => s.id} empty="No subscriptions yet." />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / pageSize))} href={linkTo} />

      <Card title="Plans">
        <DataTable caption="Subscription plans" columns={planColumns} rows={planViews} rowKey={(p) => p.id} empty="No plans yet." />
      </Card>

      <Card title="Export CSV">
        <form method="get" action="/dashboard/subscriptions/export" aria-label="Export subscriptions as CSV">
          {status && <input type="hidden" name="status" value={status} />}
          <Button type="submit" variant="secondary">
            Download CSV{status ? ` (${status.replace("_", " ")})` : ""}
          </Button>
          <p className={uiStyles.hint}>Every subscription{exportQuery ? " in this status" : ""}, newest first.</p>
        </form>
      </Card>
    </>
  );
}
