import "server-only";
import { parse } from "csv-parse/sync";
import { getAddress, isAddress, type Address } from "viem";
import { findToken, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, validationError, type FieldErrors } from "@/lib/http/errors";
import { isTypedAddress } from "@/lib/http/schemas";
import { parseAmount } from "@/lib/money/amounts";
import { outsideDestinationProblem } from "@/lib/refunds/refund-destination";
import { screenAddress } from "@/lib/screening/screen-address";
import { maxPayoutLegs, maxReferenceLength, type PayoutLegInput } from "./schemas";

/** One recipient as entered: where it came from (a JSON index or a CSV line) and its text. */
export interface EnteredLeg {
  /** `legs.3` or `csv.4` (line 4 of the CSV, the header being line 1): the key of its errors in `details`. */
  key: string;
  address: string;
  amount: string;
  reference: string | null;
  token?: string;
  chain?: string;
  /** A claimed claim link this leg pays. */
  claimId?: string;
}

/** A leg that passed every check: the address checksummed, the amount as entered (token or fiat). */
export interface CheckedLeg {
  toAddress: Address;
  amountText: string;
  reference: string | null;
  claimId?: string;
}

const csvColumns = ["address", "amount", "token", "chain", "reference"] as const;

/**
 * The CSV's rows as entered legs. The header names the columns (any order, case-insensitive):
 * address and amount are required; token, chain and reference are optional. A file that cannot be
 * read as CSV, or a header without the required columns, is refused as a whole on `csv`.
 */
export function readPayoutCsv(text: string): EnteredLeg[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { info: true, skip_empty_lines: true, trim: true, relax_column_count: true, bom: true }) as never;
  } catch (error) {
    throw validationError({ csv: [`Not readable as CSV: ${error instanceof Error ? error.message : String(error)}`] }, "The CSV could not be read.");
  }
  const [header, ...rows] = records;
  if (!header) throw validationError({ csv: ["The CSV is empty: give a header row (address,amount,…) and one row per recipient."] });
  const names = header.record.map((name) => name.toLowerCase());
  const unknown = names.filter((name) => !(csvColumns as readonly string[]).includes(name));
  if (unknown.length || !names.includes("address") || !names.includes("amount")) {
    throw validationError({
      csv: [
        `The header must name the columns address and amount, and may add token, chain and reference${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}.`,
      ],
    });
  }
  if (rows.length > maxPayoutLegs) throw validationError({ csv: [`At most ${maxPayoutLegs} rows per batch.`] });
  return rows.map(({ record, info }) => {
    const cell = (name: (typeof csvColumns)[number]) => {
      const index = names.indexOf(name);
      return index >= 0 ? (record[index] ?? "") : undefined;
    };
    return {
      key: `csv.${info.lines}`,
      address: cell("address") ?? "",
      amount: cell("amount") ?? "",
      reference: cell("reference") || null,
      token: cell("token"),
      chain: cell("chain"),
    };
  });
}

export function enteredFromJson(legs: PayoutLegInput[]): EnteredLeg[] {
  return legs.map((leg, i) => ({ key: `legs.${i}`, address: leg.address.trim(), amount: leg.amount.trim(), reference: leg.reference?.trim() || null }));
}

/**
 * Checks every leg and answers all the problems at once, row by row (400 VALIDATION_ERROR with
 * `details` keyed `legs.<index>.<field>` or `csv.<line>.<field>`): an address that is not one or
 * whose EIP-55 checksum is wrong, an address the money must not go to (the gateway's deposit
 * addresses and contracts, the merchant's own payout wallets, the zero address), an amount that does
 * not parse in the batch's token (or fiat), a token unknown on the chain or not the batch's, another
 * chain, and duplicates (the same address or the same reference twice).
 */
export async function checkPayoutLegs(
  db: DbOrTx,
  merchantId: number,
  chain: Blockchain,
  token: TokenInfo,
  amountDecimals: number,
  entered: EnteredLeg[],
): Promise<CheckedLeg[]> {
  if (entered.length === 0) throw validationError({ legs: ["A batch needs at least one leg."] });
  const problems: FieldErrors = {};
  const add = (key: string, message: string) => (problems[key] ??= []).push(message);
  const seenAddress = new Map<string, string>();
  const seenReference = new Map<string, string>();
  const checked: CheckedLeg[] = [];
  const keys: string[] = [];
  for (const leg of entered) {
    let address: Address | null = null;
    if (!/^0x[0-9a-fA-F]{40}$/.test(leg.address)) add(`${leg.key}.address`, "Not an EVM address (0x followed by 40 hex digits).");
    else if (!isTypedAddress(leg.address) || !isAddress(leg.address, { strict: false }))
      add(`${leg.key}.address`, "Bad checksum (EIP-55): the address has a typo, or was changed.");
    else {
      address = getAddress(leg.address);
      const problem = await outsideDestinationProblem(db, merchantId, address);
      if (problem) add(`${leg.key}.address`, `Must be the recipient's own address, not ${problem}.`);
      const earlier = seenAddress.get(address.toLowerCase());
      if (earlier) add(`${leg.key}.address`, `Duplicate: the same address as ${earlier}.`);
      else seenAddress.set(address.toLowerCase(), leg.key);
    }
    try {
      parseAmount(leg.amount, amountDecimals);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      add(`${leg.key}.amount`, error.message);
    }
    if (leg.token) {
      const named = findToken(chain, leg.token);
      if (!named) add(`${leg.key}.token`, `Unknown token '${leg.token}' on ${chain.slug}.`);
      else if (named.symbol !== token.symbol) add(`${leg.key}.token`, `This batch pays ${token.symbol}; put ${named.symbol} legs in a batch of their own.`);
    }
    if (leg.chain && leg.chain.toLowerCase() !== chain.slug)
      add(`${leg.key}.chain`, `This batch pays on ${chain.slug}; put ${leg.chain} legs in a batch of their own.`);
    if (leg.reference) {
      if (leg.reference.length > maxReferenceLength) add(`${leg.key}.reference`, `At most ${maxReferenceLength} characters.`);
      const earlier = seenReference.get(leg.reference);
      if (earlier) add(`${leg.key}.reference`, `Duplicate: the same reference as ${earlier}.`);
      else seenReference.set(leg.reference, leg.key);
    }
    if (address) {
      checked.push({ toAddress: address, amountText: leg.amount, reference: leg.reference, claimId: leg.claimId });
      keys.push(leg.key);
    }
  }
  const rows = new Set(Object.keys(problems).map((key) => key.split(".").slice(0, 2).join("."))).size;
  if (rows) throw validationError(problems, `${rows} of ${entered.length} legs are refused; nothing was saved.`);
  // Sanctions screening last, once the rows are sound: no money goes to a listed address (its own error code).
  const sanctioned: FieldErrors = {};
  for (const [i, leg] of checked.entries()) {
    const verdict = await screenAddress(db, leg.toAddress, { chainId: chain.chainId });
    if (verdict.listed)
      sanctioned[`${keys[i]}.address`] = [
        `Failed sanctions screening (${verdict.matchedBy === "sanctions_list" ? "on the sanctions list" : "screening provider"}).`,
      ];
  }
  const listed = Object.keys(sanctioned).length;
  if (listed)
    throw new ApiError(
      "SANCTIONED_ADDRESS",
      `${listed} of ${entered.length} legs go to addresses that failed sanctions screening; nothing was saved.`,
      sanctioned,
    );
  return checked;
}
