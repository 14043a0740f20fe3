import { findBlockchainById } from "@/lib/chains/catalog";

/** Dates are shown in UTC, like the API, so what the merchant reads matches their logs. */
export function formatDate(date: Date | string | null | undefined): string {
  if (!date) return "—";
  const d = typeof date === "string" ? new Date(date) : date;
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function chainSlug(blockchainId: number): string {
  return findBlockchainById(blockchainId)?.slug ?? String(blockchainId);
}

/** Explorer link for a transaction or address, when the chain has an explorer (the devnet has none). */
export function explorerUrl(blockchainId: number, kind: "tx" | "address", value: string): string | null {
  const base = findBlockchainById(blockchainId)?.explorerUrl;
  return base ? `${base.replace(/\/+$/, "")}/${kind}/${value}` : null;
}

export function shorten(value: string, keep = 10): string {
  return value.length > keep * 2 + 1 ? `${value.slice(0, keep)}…${value.slice(-6)}` : value;
}
