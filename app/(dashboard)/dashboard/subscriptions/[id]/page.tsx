import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { subscriptionStatuses, type SubscriptionStatus } from "@/lib/db/schema/subscriptions";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, Card, DescriptionList, Row } from "@/components/ui";
import { ActionForm, Field } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { ApiError } from "@/lib/http/errors";
import { getSubscriptionView } from "@/lib/subscriptions/subscriptions";
import { cancelSubscriptionAction, pauseSubscriptionAction, resumeSubscriptionAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.subscriptions"))("detail.metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.subscriptions">>>;
const statusName = (t: T, status: string) =>
  (subscriptionStatuses as readonly string[]).includes(status) ? t(`statuses.${status as SubscriptionStatus}`) : status.replace("_", " ");

type View = Awaited<ReturnType<typeof getSubscriptionView>>;
type Entry = NonNullable<View["history"]>[number];

const historyColumns = (t: T): Array<Column<Entry>> => [
  { header: t("detail.when"), cell: (e) => e.created_at.slice(0, 19).replace("T", " ") + " UTC" },
  { header: t("detail.event"), cell: (e) => e.kind.replace("_", " ") },
  { header: t("detail.statusAfter"), cell: (e) => <Badge status={e.status}>{statusName(t, e.status)}</Badge> },
  { header: t("detail.detail"), cell: (e) => (e.detail ? JSON.stringify(e.detail) : ""), mono: true },
];

// /dashboard/subscriptions/{id} – one subscription: its terms, its history, cancel / pause / resume
export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const merchant = await requirePageMerchant();
  const { id } = await params;
  let view: View;
  try {
    view = await getSubscriptionView(await getDb(), merchant.merchantId, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const t = await getTranslations("dashboard.subscriptions");
  const canPause = ["trialing", "active", "past_due"].includes(view.status);
  const canCancel = canPause || view.status === "paused";
  return (
    <>
      <p>
        <Link href="/dashboard/subscriptions">{t("detail.back")}</Link>
      </p>
      <h1>
        {t("detail.heading", { id: view.id })} <Badge status={view.status}>{statusName(t, view.status)}</Badge>
      </h1>
      <Card title={t("detail.terms")}>
        <DescriptionList
          items={[
            [t("detail.plan"), view.plan],
            [t("detail.perPeriodMax"), t("detail.amountOn", { amount: `${view.max_amount} ${view.currency}`, chain: view.blockchain })],
            [t("detail.period"), t("days", { days: view.interval_days })],
            [t("detail.firstCharge"), view.starts_at.slice(0, 16).replace("T", " ") + " UTC"],
            [t("detail.ends"), view.ends_at ? view.ends_at.slice(0, 16).replace("T", " ") + " UTC" : t("detail.whenCanceled")],
            [t("detail.periodsCharged"), String(view.periods_charged)],
            [t("detail.customerWallet"), <code key="c">{view.customer_address}</code>],
            [t("detail.paidTo"), <code key="m">{view.merchant_address}</code>],
            [t("detail.pullContract"), <code key="p">{view.pull_address}</code>],
            [t("detail.customerEmail"), view.customer_email ?? "—"],
            [t("detail.subscribePage"), <a key="s" href={`/subscribe/${view.id}`}>{`/subscribe/${view.id}`}</a>],
          ]}
        />
      </Card>
      {(canPause || canCancel || view.status === "paused") && (
        <Card title={t("detail.actions")}>
          <Row>
            {canPause && (
              <ActionForm
                action={pauseSubscriptionAction}
                hiddenFields={{ id: view.id }}
                submitLabel={t("detail.pause")}
                variant="secondary"
                label={t("detail.pause")}
              />
            )}
            {view.status === "paused" && (
              <ActionForm
                action={resumeSubscriptionAction}
                hiddenFields={{ id: view.id }}
                submitLabel={t("detail.resume")}
                variant="secondary"
                label={t("detail.resume")}
              />
            )}
          </Row>
          {canCancel && (
            <ActionForm
              action={cancelSubscriptionAction}
              hiddenFields={{ id: view.id }}
              submitLabel={t("detail.cancel")}
              variant="danger"
              label={t("detail.cancel")}
              confirmText={t("detail.cancelConfirm")}
            >
              <Field label={t("detail.reason")} name="reason" maxLength={500} />
            </ActionForm>
          )}
        </Card>
      )}
      <Card title={t("detail.history")}>
        <DataTable caption={t("detail.history")} columns={historyColumns(t)} rows={view.history ?? []} rowKey={(_, i) => i} empty={t("detail.nothing")} />
      </Card>
    </>
  );
}
