/**
 * EIP-681 payment request URIs: what the pay page's QR code and its "Open in wallet app" button
 * carry. Pure and dependency-free (no viem): the pay page's first-load bundle imports it.
 *
 * - Native coin: `ethereum:<to>@<chainId>?value=<wei>`.
 * - ERC-20 token: `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<base units>`.
 *
 * Amounts are plain integers in base units: EIP-681 also allows `2.014e18`, which several wallets
 * misparse (docs/design/payments.md › The hosted payment page).
 */

const addressPattern = /^0x[0-9a-fA-F]{40}$/;

function checkAddress(address: string, what: string): string {
  if (!addressPattern.test(address)) throw new Error(`${what} is not a 0x address of 40 hex digits.`);
  return address;
}

export interface PaymentRequest {
  /** The deposit address that receives the payment. */
  to: string;
  chainId: number;
  /** The ERC-20 contract; null for the chain's native coin. */
  tokenAddress: string | null;
  /** What to pay, in base units (wei, or the token's smallest unit). */
  amount: bigint;
}

/** The EIP-681 URI of a payment request (see the module comment for both forms). */
export function paymentRequestUri(request: PaymentRequest): string {
  const to = checkAddress(request.to, "The deposit address");
  if (!Number.isSafeInteger(request.chainId) || request.chainId <= 0) throw new Error("The chain id must be a positive integer.");
  if (request.amount < 0n) throw new Error("A payment amount cannot be negative.");
  if (request.tokenAddress === null) return `ethereum:${to}@${request.chainId}?value=${request.amount.toString()}`;
  const token = checkAddress(request.tokenAddress, "The token contract");
  return `ethereum:${token}@${request.chainId}/transfer?address=${to}&uint256=${request.amount.toString()}`;
}
