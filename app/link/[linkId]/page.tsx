import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { LinkCheckout } from "@/components/pay/link-checkout";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import { StoreBrand } from "@/components/pay/store-brand";
import { storeLookForLink } from "@/lib/branding/look-for-page";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { linkPageFirstTexts } from "@/lib/payment-links/link-price";
import { getPublicLinkView } from "@/lib/payment-links/payment-links";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("link");
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

async function findLinkView(linkId: string) {
  if (!/^LNK-[0-9A-Za-z]{1,64}$/.test(linkId)) return null;
  try {
    return await getPublicLinkView(await getDb(), linkId);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

// GET /link/{link_id} – a payment link's public page: pick how to pay, get a fresh order, go to /pay/{order_id}
export default async function LinkPage({ params }: { params: Promise<{ linkId: string }> }) {
  const { linkId } = await params;
  const link = await findLinkView(linkId);
  if (!link) notFound();
  const methods = link.options.map((o) => ({ ...o, network: findBlockchainBySlug(o.blockchain)?.name ?? o.blockchain }));
  return (
    <>
      <LocaleSwitcher returnTo={`/link/${link.id}`} />
      <StoreBrand look={await storeLookForLink(await getDb(), link.id)}>
        <NextIntlClientProvider messages={pickMessages(await getMessages(), ["link", "errors"])}>
          <LinkCheckout link={link} methods={methods} texts={linkPageFirstTexts(link, methods[0]?.currency ?? "", await getLocale())} />
        </NextIntlClientProvider>
      </StoreBrand>
    </>
  );
}
