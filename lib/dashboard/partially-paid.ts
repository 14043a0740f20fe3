/**
 * An order still waiting for the rest of its payment: pending, with some of it received (an
 * underpayment before expiry). The dashboard marks it "partially paid" next to its status.
 */
export function isPartiallyPaid(order: { status: string; amount_received: string }): boolean {
  return order.status === "pending" && /[1-9]/.test(order.amount_received);
}
