import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LinkCheckout } from "@/components/pay/link-checkout";
import { getDb } from "@/lib/db/client";
import { findActiveLink } from "@/lib/payment-links/queries";
import { serializePublicLink } from "@/lib/payment-links/payment-links";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Pay",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

// GET /link/{link_id} – a payment link's public page: pick how to pay, get a fresh order, go to /pay/{order_id}
export default async function LinkPage({ params }: { params: Promise<{ linkId: string }> }) {
  const { linkId } = await params;
  const found = /^LNK-[0-9A-Za-z]{1,64}$/.test(linkId) ? await findActiveLink(await getDb(), linkId) : null;
  if (!found) notFound();
  return <LinkCheckout link={serializePublicLink(found.link, found.shopName)} />;
}
