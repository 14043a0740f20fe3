import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { parseRowId } from "@/lib/http/schemas";
import { attemptsOf, findEndpoint, listEndpointDeliveries } from "@/lib/webhooks/queries";
import { redeliverAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.webhooks"))("log.metaTitle") };
}

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
  const t = await getTranslations("dashboard.webhooks");
  return (
    <>
      <p>
        <Link href="/dashboard/webhooks">{t("log.back")}</Link>
      </p>
      <h1>{t("log.heading")}</h1>
      <p>
        <code>{endpoint.url}</code> · {t("log.count", { count })}
      </p>
      <Card>
        <DeliveriesList deliveries={rows} attempts={attempts} redeliver={redeliverAction} />
      </Card>
    </>
  );
}
