import { getAddress, type Address } from "viem";

/**
 * The URI encoded in an order's QR code (EIP-681).
 *
 * - Native coin: `ethereum:<deposit address>@<chainId>?value=<wei>`, the amount as a plain
 *   integer (EIP-681 also allows `2.014e18`, which several wallets misparse).
 * - ERC-20 tokens: only `ethereum:<deposit address>@<chainId>`. The token form
 *   (`ethereum:<token>@<chainId>/transfer?address=…&uint256=…`) is read by several wallets as a
 *   plain payment to the token contract or in the native coin, which loses or misdirects funds;
 *   the payment page states the token and the amount instead (docs/decisions.md).
 */
export function paymentUri(params: { address: Address | string; chainId: number; nativeAmount?: bigint | null }): string {
  const base = `ethereum:${getAddress(params.address)}@${params.chainId}`;
  if (params.nativeAmount === undefined || params.nativeAmount === null) return base;
  if (params.nativeAmount < 0n) throw new Error("A payment amount cannot be negative.");
  return `${base}?value=${params.nativeAmount.toString()}`;
}
