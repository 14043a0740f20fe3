import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Subscription · Dashboard" };

type View = Awaited<ReturnType<typeof getSubscriptionView>>;
type Entry = NonNullable<View["history"]>[number];

const historyColumns: Array<Column<Entry>> = [
  { header: "When", cell: (e) => e.created_at.slice(0, 19).replace("T", " ") + " UTC" },
  { header: "Event", cell: (e) => e.kind.replace("_", " ") },
  { header: "Status after", cell: (e) => <Badge status={e.status}>{e.status.replace("_", " ")}</Badge> },
  { header: "Detail", cell: (e) => (e.detail ? JSON.stringify(e.detail) : ""), mono: true },
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
  const canPause = ["trialing", "active", "past_due"].includes(view.status);
  const canCancel = canPause || view.status === "paused";
  return (
    <>
      <p>
        <Link href="/dashboard/subscriptions">← Subscriptions</Link>
      </p>
      <h1>
        Subscription {view.id} <Badge status={view.status}>{view.status.replace("_", " ")}</Badge>
      </h1>
      <Card title="Terms">
        <DescriptionList
          items={[
            ["Plan", view.plan],
            ["Per period, at most", `${view.max_amount} ${view.currency} on ${view.blockchain}`],
            ["Period", `${view.interval_days} days`],
            ["First charge", view.starts_at.slice(0, 16).replace("T", " ") + " UTC"],
            ["Ends", view.ends_at ? view.ends_at.slice(0, 16).replace("T", " ") + " UTC" : "when canceled"],
            ["Periods charged", String(view.periods_charged)],
            ["Customer wallet", <code key="c">{view.customer_address}</code>],
            ["Paid to", <code key="m">{view.merchant_address}</code>],
            ["Pull contract", <code key="p">{view.pull_address}</code>],
            ["Customer e-mail", view.customer_email ?? "—"],
            ["Subscribe page", <a key="s" href={`/subscribe/${view.id}`}>{`/subscribe/${view.id}`}</a>],
          ]}
        />
      </Card>
      {(canPause || canCancel || view.status === "paused") && (
        <Card title="Actions">
          <Row>
            {canPause && <ActionForm action={pauseSubscriptionAction} hiddenFields={{ id: view.id }} submitLabel="Pause" variant="secondary" label="Pause" />}
            {view.status === "paused" && (
              <ActionForm action={resumeSubscriptionAction} hiddenFields={{ id: view.id }} submitLabel="Resume" variant="secondary" label="Resume" />
            )}
          </Row>
          {canCancel && (
            <ActionForm
              action={cancelSubscriptionAction}
              hiddenFields={{ id: view.id }}
              submitLabel="Cancel subscription"
              variant="danger"
              label="Cancel subscription"
              confirmText="Cancel this subscription for good? Nothing more is charged, and its contract is cancelled on chain."
            >
              <Field label="Reason (kept in the history)" name="reason" maxLength={500} />
            </ActionForm>
          )}
        </Card>
      )}
      <Card title="History">
        <DataTable caption="History" columns={historyColumns} rows={view.history ?? []} rowKey={(_, i) => i} empty="Nothing yet." />
      </Card>
    </>
  );
}
