import "server-only";
import { getAddress } from "viem";
import type { SanctionedAddress } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { describeError, log } from "@/lib/log";
import { findListedAddresses } from "./queries";

export interface ScreeningProvider {
  url: string;
  token?: string;
  timeoutMs: number;
  /** What a failed call means: open lets the address through, closed treats it as a match. */
  onFailure: "open" | "closed";
}

export type ScreeningVerdict =
  { listed: false } | { listed: true; matchedBy: "sanctions_list"; reason: string } | { listed: true; matchedBy: "provider"; reason: string };

/** The verdict for an address the loaded list holds. */
export function listedVerdict(entry: SanctionedAddress): ScreeningVerdict {
  return {
    listed: true,
    matchedBy: "sanctions_list",
    reason: `${entry.listedPartyName} (SDN ${entry.listedPartyId}, ${entry.programs || "no program"}, listed as ${entry.currency})`,
  };
}

/** The provider this deployment configured (SCREENING_PROVIDER_*), if any. */
export function configuredProvider(): ScreeningProvider | null {
  if (!env.SCREENING_PROVIDER_URL) return null;
  return {
    url: env.SCREENING_PROVIDER_URL,
    token: env.SCREENING_PROVIDER_TOKEN,
    timeoutMs: env.SCREENING_PROVIDER_TIMEOUT_MS,
    onFailure: env.SCREENING_PROVIDER_FAILURE,
  };
}

async function askProvider(provider: ScreeningProvider, address: string, chainId: number | null): Promise<ScreeningVerdict> {
  try {
    const response = await fetch(provider.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(provider.token ? { authorization: `Bearer ${provider.token}` } : {}) },
      body: JSON.stringify({ address, chain_id: chainId }),
      signal: AbortSignal.timeout(provider.timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { sanctioned?: unknown; reason?: unknown };
    if (typeof body.sanctioned !== "boolean") throw new Error("answer without a boolean 'sanctioned'");
    return body.sanctioned
      ? { listed: true, matchedBy: "provider", reason: typeof body.reason === "string" ? body.reason.slice(0, 200) : "Flagged by the screening provider" }
      : { listed: false };
  } catch (error) {
    log.warn("screening provider failed", { address, onFailure: provider.onFailure, ...describeError(error) });
    return provider.onFailure === "closed"
      ? { listed: true, matchedBy: "provider", reason: "The screening provider did not answer (fail-closed)" }
      : { listed: false };
  }
}

/**
 * Screens one address: the loaded sanctions list first, then the screening provider if one is
 * configured (with its timeout and fail-open or fail-closed policy). For every surface that sends
 * or receives money: payers (lib/engine attribution), refund destinations, payout destinations.
 */
export async function screenAddress(
  db: DbOrTx,
  address: string,
  options: { chainId?: number | null; provider?: ScreeningProvider | null } = {},
): Promise<ScreeningVerdict> {
  const [listed] = await findListedAddresses(db, [address]);
  if (listed) return listedVerdict(listed);
  const provider = options.provider === undefined ? configuredProvider() : options.provider;
  return provider ? askProvider(provider, getAddress(address), options.chainId ?? null) : { listed: false };
}

/** Refuses money to a screened address: 400 SANCTIONED_ADDRESS naming `field`. */
export async function assertNotSanctioned(
  db: DbOrTx,
  address: string,
  field: string,
  options: { chainId?: number | null; provider?: ScreeningProvider | null } = {},
): Promise<void> {
  const verdict = await screenAddress(db, address, options);
  if (verdict.listed) {
    throw new ApiError("SANCTIONED_ADDRESS", `${getAddress(address)} failed sanctions screening: no money is sent to it.`, {
      [field]: [`Failed sanctions screening (${verdict.matchedBy === "sanctions_list" ? "on the sanctions list" : "screening provider"}).`],
    });
  }
}
