import { createdAnswer, defineRoute } from "@/lib/http/define-route";
import { orderParams } from "@/lib/orders/schemas";
import { gaslessPaymentBody, gaslessPaymentJson } from "./schemas";

/** Gasless stablecoin payments from the payment page (EIP-3009 relays). */
export const gaslessRoutes = {
  relay: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/gasless",
    access: "public",
    params: orderParams,
    body: gaslessPaymentBody,
    // Public (the customer has no credential), so limited per client address like simulate; the gas is capped per merchant and for all merchants.
    clientLimit: { name: "pay-gasless", perHour: 30 },
    doc: {
      summary: "Pay without gas (payment page)",
      description:
        "For tokens with EIP-3009 (`gasless` in the public order is not null): the customer's wallet signs `TransferWithAuthorization` (EIP-712, in the token's domain `gasless.name`/`gasless.version`, the chain's id and the token's address) for a transfer of exactly the amount due now (`amount_missing`, in base units) to the order's `receiving_address`, valid from `gasless.valid_after` to `gasless.valid_before` at most, with a random 32-byte nonce; the gateway checks it and sends it from its relayer, paying the gas. The transfer is detected and confirmed like any other payment. Refused: an order not worth relaying, whose amount due is worth less than the gasless minimum or would cost more than its share in gas at the current price (400 RELAY_NOT_WORTHWHILE; the public order's `gasless` is null then); an authorization for another address or amount, outside the order's life or expired, not signed by `from` (400 INVALID_AUTHORIZATION); a nonce already used or canceled (409 AUTHORIZATION_USED); the merchant's or all merchants' hourly relay gas used up (429 RELAY_BUDGET_EXHAUSTED); gas above the relay ceiling (503 GAS_PRICE_TOO_HIGH); the relayer at its balance floor, or no price feed for the chain's native coin (503 SERVICE_UNAVAILABLE). Limited per client address.",
      tags: ["Payment page"],
      response: createdAnswer(gaslessPaymentJson, "Sent without gas; the payment is on its way."),
      errors: [
        "RELAY_NOT_WORTHWHILE",
        "INVALID_AUTHORIZATION",
        "UNSUPPORTED_CURRENCY",
        "CONFLICT",
        "AUTHORIZATION_USED",
        "RELAY_BUDGET_EXHAUSTED",
        "RATE_LIMITED",
        "GAS_PRICE_TOO_HIGH",
        "SERVICE_UNAVAILABLE",
      ],
    },
  }),
};
