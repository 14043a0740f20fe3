import type { Metadata } from "next";
import { Card } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { listMerchantTokens } from "@/lib/tokens/merchant-tokens";
import { setCurrencyAction } from "./actions";

export const metadata: Metadata = { title: "Currencies · Dashboard" };

type Chain = Awaited<ReturnType<typeof listMerchantTokens>>[number];
type Row = Chain["tokens"][number] & { blockchain: string };

export default async function CurrenciesPage() {
  const merchant = await requirePageMerchant();
  const chains = await listMerchantTokens(await getDb(), merchant.merchantId);
  const mayManage = roleAllows(merchant.role, "manage_account");
  const columns: Array<Column<Row>> = [
    { header: "Currency", cell: (t) => t.symbol },
    { header: "Contract", cell: (t) => t.address ?? "native coin", mono: true },
    { header: "Decimals", cell: (t) => String(t.decimals) },
    { header: "Gasless", cell: (t) => (t.gasless ? "yes (EIP-3009)" : "no") },
    { header: "Taken", cell: (t) => (t.enabled ? "on" : "off") },
    {
      header: "Actions",
      hideHeader: true,
      cell: (t) =>
        mayManage ? (
          <ActionForm
            action={setCurrencyAction}
            hiddenFields={{ blockchain: t.blockchain, currency: t.symbol, enabled: t.enabled ? "false" : "true" }}
            submitLabel={t.enabled ? "Switch off" : "Switch on"}
            small
            variant={t.enabled ? "secondary" : "primary"}
            label={`${t.enabled ? "Switch off" : "Switch on"} ${t.symbol} on ${t.blockchain}`}
          />
        ) : null,
    },
  ];
  return (
    <>
      <h1>Currencies</h1>
      <p>
        The currencies your store takes on each chain. A currency switched off is refused when an order, an accepted method or a payment link asks for it
        (UNSUPPORTED_CURRENCY); orders already made are not changed.
      </p>
      {chains.map((chain) => (
        <Card key={chain.blockchain}>
          <h2>{chain.name}</h2>
          <DataTable
            caption={`Currencies on ${chain.name}`}
            columns={columns}
            rows={chain.tokens.map((t) => ({ ...t, blockchain: chain.blockchain }))}
            rowKey={(t) => t.symbol}
            empty="No currencies."
          />
        </Card>
      ))}
    </>
  );
}
