/**
 * What the paying wallet signs (EIP-191 personal_sign) to name its refund address on the payment
 * page; `refundAddress` EIP-55 checksummed. Shared by the page (which asks the wallet to sign it)
 * and the use-case (which verifies it), so the two cannot drift apart.
 */
export function refundAddressMessage(orderId: string, checksummedRefundAddress: string): string {
  return `Refund address for payment order ${orderId}: ${checksummedRefundAddress}`;
}
