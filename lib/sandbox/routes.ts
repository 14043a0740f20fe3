import { createdAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import { orderParams } from "@/lib/orders/schemas";
import { faucetBody, faucetJson, mineBody, mineJson, payOrderBody, payOrderJson, reorgBody, reorgJson, simulateBody, simulatedPaymentJson } from "./schemas";

/** The sandbox's devnet tools (404 in live mode). */
export const sandboxRoutes = {
  payOrder: defineRoute({
    method: "POST",
    path: "/api/sandbox/payment-orders/[orderId]/pay",
    access: "create_payments",
    params: orderParams,
    body: payOrderBody,
    sandboxOnly: true,
    doc: {
      summary: "Pay an order on the devnet",
      description:
        "A real transfer from the faucet to the order's deposit address. Without an amount it pays what is still missing in the order's currency (409 CONFLICT when nothing is); give less to test underpayment, or another currency to test wrong-asset handling (default there: the order's amount).",
      tags: ["Sandbox"],
      response: createdAnswer(payOrderJson, "Payment sent on the devnet."),
      errors: ["UNSUPPORTED_CURRENCY", "INVALID_AMOUNT", "CONFLICT", "SERVICE_UNAVAILABLE"],
    },
  }),
  mine: defineRoute({
    method: "POST",
    path: "/api/sandbox/mine",
    access: "create_payments",
    body: mineBody,
    sandboxOnly: true,
    doc: {
      summary: "Mine devnet blocks",
      description: "Simulated confirmations: mines `blocks` blocks on the devnet.",
      tags: ["Sandbox"],
      response: okAnswer(mineJson, "Mined 1 block(s)."),
      errors: ["INVALID_BLOCKCHAIN", "SERVICE_UNAVAILABLE"],
    },
  }),
  reorg: defineRoute({
    method: "POST",
    path: "/api/sandbox/reorg",
    access: "create_payments",
    body: reorgBody,
    sandboxOnly: true,
    doc: {
      summary: "Reorganise the devnet",
      description:
        "Rehearse a chain reorganisation: the newest `depth` blocks (at least) are replaced by a longer branch without your transactions in them (payments to your orders, relays, sweeps, refunds); the devnet is shared, so every other transaction of those blocks (other merchants', faucet mints) is mined again on the new branch with its hash, and their payments stay as they were. Your payment in them vanishes: an order still `processing` goes back to `pending`, a `confirmed` one stays confirmed but reads `at_risk: true`, and a `payment.reorged` webhook says so. Counts against the hourly mined-block budget (depth + 1). 409 CONFLICT when the devnet holds no state that far back (it keeps one from each sandbox pay, faucet and mine call).",
      tags: ["Sandbox"],
      response: okAnswer(reorgJson, "Replaced 3 block(s)."),
      errors: ["INVALID_BLOCKCHAIN", "CONFLICT", "RATE_LIMITED", "SERVICE_UNAVAILABLE"],
    },
  }),
  faucet: defineRoute({
    method: "POST",
    path: "/api/sandbox/faucet",
    access: "create_payments",
    body: faucetBody,
    sandboxOnly: true,
    doc: {
      summary: "Get test tokens",
      description: "Sends test tokens or the native coin to any address on the devnet.",
      tags: ["Sandbox"],
      response: okAnswer(faucetJson, "Sent from the faucet."),
      errors: ["INVALID_BLOCKCHAIN", "UNSUPPORTED_CURRENCY", "INVALID_AMOUNT", "SERVICE_UNAVAILABLE"],
    },
  }),
  simulate: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/simulate",
    access: "public",
    params: orderParams,
    body: simulateBody,
    sandboxOnly: true,
    // Public (the customer has no credential), so limited per client address: each call is a devnet transaction.
    clientLimit: { name: "pay-simulate", perHour: 120 },
    doc: {
      summary: "Simulate a payment from the payment page",
      description:
        "The payment page's sandbox controls: `full` pays what is missing, `partial` half of it, `mine` mines the confirmations still needed. Limited per client address.",
      tags: ["Payment page", "Sandbox"],
      response: createdAnswer(simulatedPaymentJson, "Simulated on the devnet."),
      errors: ["CONFLICT", "RATE_LIMITED", "SERVICE_UNAVAILABLE"],
    },
  }),
};
