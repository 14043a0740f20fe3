import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Badge, Button, Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { CreateSubscriptionForm } from "@/components/dashboard/create-subscription-form";
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
import { CopyButton } from "@/components/ui/copy-button";
import { createPlanAction, createSubscriptionAction, setPlanPublicLinkAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.subscriptions"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.subscriptions">>>;
type Shared = Awaited<ReturnType<typeof getTranslations<"dashboard.shared">>>;
const statusName = (t: T, status: string) =>
  (subscriptionStatuses as readonly string[]).includes(status) ? t(`statuses.${status as SubscriptionStatus}`) : status.replace("_", " ");

const pageSize = 50;

type Row = Awaited<ReturnType<typeof listSubscriptions>>["rows"][number];
type Plan = ReturnType<typeof serializePlan>;

const columns = (t: T): Array<Column<Row>> => [
  { header: t("subscription"), cell: (s) => <a href={`/dashboard/subscriptions/${s.id}`}>{s.id}</a>, mono: true },
  { header: t("plan"), cell: (s) => s.plan, mono: true },
  { header: t("status"), cell: (s) => <Badge status={s.status}>{statusName(t, s.status)}</Badge> },
  { header: t("perPeriod"), cell: (s) => t("perPeriodValue", { amount: `${s.max_amount} ${s.currency}`, days: s.interval_days }), align: "end" },
  { header: t("charged"), cell: (s) => String(s.periods_charged), align: "end" },
  { header: t("customer"), cell: (s) => s.customer_address, mono: true },
  { header: t("created"), cell: (s) => s.created_at.slice(0, 16).replace("T", " ") },
];

/** The plan's public subscribe link: shown with Copy while shared, and the switch that shares it or stops. */
function PublicLinkCell({ plan, t, shared }: { plan: Plan; t: T; shared: Shared }) {
  const toggle = (
    <ActionForm
      action={setPlanPublicLinkAction}
      hiddenFields={{ id: plan.id, public_link: plan.public_link ? "off" : "on" }}
      submitLabel={plan.public_link ? t("publicLink.stop") : t("publicLink.share")}
      successMessage={plan.public_link ? t("publicLink.stopped") : t("publicLink.shared")}
      variant="secondary"
      small
      label={plan.public_link ? t("publicLink.stopLabel", { name: plan.name }) : t("publicLink.shareLabel", { name: plan.name })}
    />
  );
  if (!plan.public_url) return plan.status === "active" ? toggle : <>{t("publicLink.off")}</>;
  return (
    <>
      <a href={plan.public_url} data-testid="plan-public-url">
        <code>{plan.public_url}</code>
      </a>{" "}
      <CopyButton
        text={plan.public_url}
        label={t("publicLink.copy", { name: plan.name })}
        words={{ copied: shared("copy.copied"), copiedStatus: shared("copy.copiedStatus"), failed: shared("copy.failed") }}
      >
        {t("publicLink.copyShort")}
      </CopyButton>
      {toggle}
    </>
  );
}

const planColumns = (t: T, shared: Shared): Array<Column<Plan>> => [
  { header: t("plan"), cell: (p) => `${p.name} (${p.id})` },
  {
    header: t("price"),
    cell: (p) =>
      p.amount ? `${p.amount} ${p.currency}` : t("priceCapped", { price: `${p.price_amount} ${p.price_currency}`, max: `${p.max_amount} ${p.currency}` }),
  },
  { header: t("every"), cell: (p) => t("days", { days: p.interval_days }), align: "end" },
  { header: t("trial"), cell: (p) => (p.trial_days ? t("days", { days: p.trial_days }) : t("none")), align: "end" },
  { header: t("periods"), cell: (p) => (p.periods === null ? t("untilCanceled") : String(p.periods)), align: "end" },
  { header: t("chain"), cell: (p) => p.blockchain },
  { header: t("publicLink.header"), cell: (p) => <PublicLinkCell plan={p} t={t} shared={shared} /> },
];

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

// /dashboard/subscriptions – subscriptions (filtered by status), plans, and the forms that create them
export default async function SubscriptionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const [t, shared] = await Promise.all([getTranslations("dashboard.subscriptions"), getTranslations("dashboard.shared")]);
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
    .flatMap((c) =>
      c.tokens
        .filter((token) => token.address)
        .map((token) => ({ value: `${c.slug}:${token.symbol}`, label: t("tokenOn", { token: token.symbol, chain: c.name }) })),
    );
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
      <h1>{t("heading")}</h1>
      <p>{t.rich("intro", { link: (chunks) => <a href="/docs/subscriptions">{chunks}</a> })}</p>
      <Row>
        <CreateDialog openLabel={t("createPlan.open")} title={t("createPlan.title")}>
          {tokens.length === 0 ? (
            <p>{t("createPlan.noContract")}</p>
          ) : (
            <ActionForm action={createPlanAction} submitLabel={t("createPlan.submit")} successMessage={t("createPlan.done")} label={t("createPlan.title")}>
              <Field
                label={t("createPlan.name")}
                name="name"
                required
                maxLength={200}
                placeholder={t("createPlan.namePlaceholder")}
                hint={t("createPlan.nameHint")}
              />
              <Row>
                <SelectField label={t("createPlan.token")} name="token" options={tokens} defaultValue={tokens.find((o) => o.value.endsWith(":USDC"))?.value} />
                <Field label={t("createPlan.amount")} name="amount" required inputMode="decimal" placeholder="9.99" />
              </Row>
              <Row>
                <Field label={t("createPlan.interval")} name="interval_days" type="number" min={1} max={366} required defaultValue={30} />
                <Field label={t("createPlan.trial")} name="trial_days" type="number" min={0} max={366} defaultValue={0} />
                <Field label={t("createPlan.periods")} name="periods" type="number" min={1} max={10000} hint={t("createPlan.periodsHint")} />
              </Row>
              <Row>
                <Field label={t("createPlan.grace")} name="grace_days" type="number" min={0} max={365} defaultValue={3} />
                <Field label={t("createPlan.pastDue")} name="past_due_days" type="number" min={0} max={365} defaultValue={7} />
              </Row>
            </ActionForm>
          )}
        </CreateDialog>
        {planViews.some((p) => p.status === "active") && (
          <CreateDialog openLabel={t("createSubscription.title")} title={t("createSubscription.title")}>
            <p>{t("createSubscription.intro")}</p>
            <CreateSubscriptionForm action={createSubscriptionAction} submitLabel={t("createSubscription.submit")} label={t("createSubscription.title")}>
              <SelectField
                label={t("createSubscription.plan")}
                name="plan"
                options={planViews.filter((p) => p.status === "active").map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
              />
              <Field label={t("createSubscription.wallet")} name="customer_address" required placeholder="0x…" hint={t("createSubscription.walletHint")} />
              <Field label={t("createSubscription.email")} name="customer_email" type="email" />
            </CreateSubscriptionForm>
          </CreateDialog>
        )}
      </Row>

      <FilterForm label={t("filter")} clearHref="/dashboard/subscriptions">
        <FilterSelect label={t("status")} name="status" options={subscriptionStatuses.map((s) => ({ value: s, label: statusName(t, s) }))} value={status} />
        <FilterSelect label={t("plan")} name="plan" options={planViews.map((p) => ({ value: p.id, label: p.name }))} value={plan} />
      </FilterForm>
      <p aria-live="polite">{t("count", { count })}</p>
      <DataTable caption={t("heading")} columns={columns(t)} rows={rows} rowKey={(s) => s.id} empty={t("empty")} />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / pageSize))} href={linkTo} />

      <Card title={t("plans")}>
        <p className={uiStyles.hint}>{t("publicLink.intro")}</p>
        <DataTable caption={t("plansCaption")} columns={planColumns(t, shared)} rows={planViews} rowKey={(p) => p.id} empty={t("noPlans")} />
      </Card>

      <Card title={t("export.title")}>
        <form method="get" action="/dashboard/subscriptions/export" aria-label={t("export.label")}>
          {status && <input type="hidden" name="status" value={status} />}
          <Button type="submit" variant="secondary">
            {status ? t("export.downloadStatus", { status: statusName(t, status) }) : t("export.download")}
          </Button>
          <p className={uiStyles.hint}>{exportQuery ? t("export.inStatus") : t("export.all")}</p>
        </form>
      </Card>
    </>
  );
}
