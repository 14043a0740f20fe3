import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { parseRowId } from "@/lib/http/schemas";
import { attemptsOf, findEndpoint, listEndpointDeliveries } from "@/lib/webhooks/queries";
import { redeliverAction } from "../actions";

export const metadata: Metadata = { title: "Delivery log · Dashboard" };

export default async function EndpointDeliveriesPage({ params }: { params: Promise<{ id: string }> }) {
  const merchant = await requirePageMerchant();
  const { id } = await params;
  const db = await getDb();
  const endpointId = parseRowId(id);
  const endpoint = endpointId === null ? null : await findEndpoint(db, merchant.merchantId, endpointId);
  if (!endpoint) notFound();
  const { rows, count } = await listEndpointDeliveries(db, endpoint, undefined, { limit: 50, offset: 0, after: null });
  const attempts = await attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  return (
    <>
      <p>
        <Link href="/dashboard/webhooks">← Webhooks</Link>
      </p>
      <h1>Delivery log</h1>
      <p>
        <code>{endpoint.url}</code> · {count} deliver{count === 1 ? "y" : "ies"} (newest 50 shown)
      </p>
      <Card>
        <DeliveriesList deliveries={rows} attempts={attempts} redeliver={redeliverAction} />
      </Card>
    </>
  );
}
