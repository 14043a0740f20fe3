import { createdAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import { receiptEmailBody, receiptEmailJson, receiptEmailParams, refundAddressByLinkBody, refundAddressByLinkJson, refundAddressLinkJson } from "./schemas";

/** Receipts by e-mail: the payment page's optional address field. */
export const receiptRoutes = {
  setReceiptEmail: defineRoute({
    method: "PUT",
    path: "/api/pay/[orderId]/receipt-email",
    access: "public",
    params: receiptEmailParams,
    body: receiptEmailBody,
    clientLimit: { name: "receipt-email", perHour: 30 },
    doc: {
      summary: "Ask for the receipt by e-mail",
      description:
        "Public, by ORD-… id (the payment page's optional field): the store mails a receipt to this address once the order is confirmed, and a notice for each refund sent. Each mail carries a one-click unsubscribe. Limited per client address (30 an hour).",
      tags: ["Payment page"],
      response: okAnswer(receiptEmailJson, "Receipt address saved."),
      errors: ["RATE_LIMITED"],
    },
  }),
  requestRefundAddressLink: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/refund-link",
    access: "public",
    params: receiptEmailParams,
    clientLimit: { name: "refund-address-link", perHour: 10 },
    doc: {
      summary: "Mail a one-time link to leave a refund address (payment page)",
      description:
        "For an overpaid, underpaid or late payment (`refund_address_allowed`) whose customer cannot sign with the paying wallet (paid from an exchange): the store mails a link to the receipt address the customer gave while the payment was still due, and only to that one (an address given after money arrived is for receipts only, so holding the page's URL is not enough to redirect a refund). The link works once, for 24 hours; a new one spends the earlier ones; at most 3 an hour per order and 10 per client address. No such address: 409 CONFLICT (contact the store). Answers the address, masked.",
      tags: ["Payment page"],
      response: okAnswer(refundAddressLinkJson, "Link sent."),
      errors: ["ORDER_NOT_REFUNDABLE", "CONFLICT", "RATE_LIMITED"],
    },
  }),
  setRefundAddressByLink: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/refund-link/address",
    access: "public",
    params: receiptEmailParams,
    body: refundAddressByLinkBody,
    clientLimit: { name: "refund-address-by-link", perHour: 30 },
    doc: {
      summary: "Leave a refund address with a mailed link",
      description:
        "Spends the link's `token` (this order's, unused, not expired; else 400 VALIDATION_ERROR on `token`) and sets the order's `refund_address` (`refund_address_source`: email_link). The address is checked as every refund destination (400 on `refund_address`; 400 SANCTIONED_ADDRESS when screening refuses it), which leaves the link unspent. It replaces an earlier refund address; refunds already built keep theirs.",
      tags: ["Payment page"],
      response: createdAnswer(refundAddressByLinkJson, "Refund address saved; the merchant will see it."),
      errors: ["ORDER_NOT_REFUNDABLE", "SANCTIONED_ADDRESS", "RATE_LIMITED"],
    },
  }),
};
