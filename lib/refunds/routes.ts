import { z } from "zod";
import { createdAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import { orderParams } from "@/lib/orders/schemas";
import { createRefundBody, enteredRefundAddressJson, enterRefundAddressBody, publicRefundAddressJson, refundAddressBody, refundJson } from "./schemas";

/** Refunds of an order, and the customer's refund address. */
export const refundRoutes = {
  listRefunds: defineRoute({
    method: "GET",
    path: "/api/payment-orders/[orderId]/refunds",
    access: "read",
    params: orderParams,
    doc: {
      summary: "List an order's refunds",
      description:
        "Oldest first, each with its status (requested → pending → confirmed, or failed) and the transaction to sign. The order's own JSON carries the same list as `refunds`.",
      tags: ["Payment orders"],
      response: okAnswer(z.array(refundJson)),
    },
  }),
  createRefund: defineRoute({
    method: "POST",
    path: "/api/payment-orders/[orderId]/refunds",
    access: "create_payments",
    params: orderParams,
    body: createRefundBody,
    doc: {
      summary: "Refund an order",
      description:
        'Refunds all or part of a confirmed order, or of a failed one that was underpaid or paid late, in the order\'s currency, to the customer\'s address (the payment page\'s `refund_address`, if the customer left one). The gateway never holds funds: the answer carries `transaction` (`from`, `to`, `data`, `value`, `chainId`), the exact transfer to sign and send from your wallet (the order\'s sweep destination). The gateway then matches it on chain (sender, recipient, asset and exact amount), marks the refund `pending`, and `confirmed` after the order\'s confirmation threshold, with `refund.created` and `refund.confirmed` webhooks. Without `amount` it refunds everything still refundable; `overpaid_only: true` refunds `amount_received − amount`. Refundable: what arrived of the order\'s currency (late payments included) minus refunds requested, pending or confirmed.\n\nExample: `{ "amount": "2.5", "to_address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "reason": "returned item" }`.',
      tags: ["Payment orders"],
      response: createdAnswer(refundJson, "Refund requested: sign and send the transaction with your wallet."),
      errors: ["INVALID_AMOUNT", "ORDER_NOT_REFUNDABLE", "REFUND_EXCEEDS_REFUNDABLE"],
    },
  }),
  setRefundAddress: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/refund-address",
    access: "public",
    params: orderParams,
    body: refundAddressBody,
    // Public (the customer has no credential), so limited per client address like simulate.
    clientLimit: { name: "pay-refund-address", perHour: 30 },
    doc: {
      summary: "Leave a refund address (payment page)",
      description:
        "For an overpaid, underpaid or late payment (`refund_address_allowed` in the public order): the customer's address for the merchant to refund to. The order id is public, so the address must be signed (EIP-191 personal_sign) by a wallet that paid the order: `signature` over `Refund address for payment order <order_id>: <refund_address>` (EIP-55 checksummed). A payer's signature replaces any earlier address; without one, or with another wallet's, or over another order or address, 400 VALIDATION_ERROR on `signature`. The merchant sees who signed (`refund_address_signed_by`). Limited per client address.",
      tags: ["Payment page"],
      response: createdAnswer(publicRefundAddressJson, "Refund address saved; the merchant will see it."),
      errors: ["ORDER_NOT_REFUNDABLE", "RATE_LIMITED"],
    },
  }),
  enterRefundAddress: defineRoute({
    method: "PUT",
    path: "/api/payment-orders/[orderId]/refund-address",
    access: "manage_wallets",
    params: orderParams,
    body: enterRefundAddressBody,
    doc: {
      summary: "Enter the customer's refund address (after contact)",
      description:
        "For a customer who cannot sign with the paying wallet or use the mailed link: a member who spoke with them enters the address. It decides where money goes, so, as for a payout address: a login (access token; an API key is 403) whose role manages wallets (owner or admin), and a fresh proof of that login in `reauth` ({ password }, plus `code` or `passkey` with two-factor authentication; missing or wrong: 400 VALIDATION_ERROR on reauth.password / reauth.code, counted toward the login throttle). The address is checked as every refund destination (400 on `refund_address`, 400 SANCTIONED_ADDRESS). Recorded in the audit log (`refund.address_entered`) and on the order (`refund_address_source`: merchant, `refund_address_given_by`). Refunds already built keep their own `to_address`.",
      tags: ["Payment orders"],
      response: okAnswer(enteredRefundAddressJson, "Refund address saved."),
      errors: ["ORDER_NOT_REFUNDABLE", "SANCTIONED_ADDRESS", "RATE_LIMITED"],
    },
  }),
};
