import { defineRoute, okAnswer } from "@/lib/http/define-route";
import { receiptEmailBody, receiptEmailJson, receiptEmailParams } from "./schemas";

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
};
