import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { listMerchantTokens } from "@/lib/tokens/merchant-tokens";
import { setCurrencyAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.currencies"))("metaTitle") };
}

type Chain = Awaited<ReturnType<typeof listMerchantTokens>>[number];
type Row = Chain["tokens"][number] & { blockchain: string };

export default async function CurrenciesPage() {
  const merchant = await requirePageMerchant();
  const chains = await listMerchantTokens(await getDb(), merchant.merchantId);
  const mayManage = roleAllows(merchant.role, "manage_account");
  const t = await getTranslations("dashboard.currencies");
  const columns: Array<Column<Row>> = [
    { header: t("currency"), cell: (token) => token.symbol },
    { header: t("contract"), cell: (token) => token.address ?? t("nativeCoin"), mono: true },
    { header: t("decimals"), cell: (token) => String(token.decimals) },
    { header: t("gasless"), cell: (token) => (token.gasless ? t("gaslessYes") : t("no")) },
    { header: t("taken"), cell: (token) => (token.enabled ? t("on") : t("off")) },
    {
      header: t("actions"),
      hideHeader: true,
      cell: (token) =>
        mayManage ? (
          <ActionForm
            action={setCurrencyAction}
            hiddenFields={{ blockchain: token.blockchain, currency: token.symbol, enabled: token.enabled ? "false" : "true" }}
            submitLabel={token.enabled ? t("switchOff") : t("switchOn")}
            small
            variant={token.enabled ? "secondary" : "primary"}
            label={t(token.enabled ? "switchOffLabel" : "switchOnLabel", { currency: token.symbol, chain: token.blockchain })}
          />
        ) : null,
    },
  ];
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>
      {chains.map((chain) => (
        <Card key={chain.blockchain}>
          <h2>{chain.name}</h2>
          <DataTable
            caption={t("caption", { chain: chain.name })}
            columns={columns}
            rows={chain.tokens.map((token) => ({ ...token, blockchain: chain.blockchain }))}
            rowKey={(token) => token.symbol}
            empty={t("empty")}
          />
        </Card>
      ))}
    </>
  );
}
