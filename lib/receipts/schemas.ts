import { z } from "zod";
import { customerLocale, evmAddress, timestamp, typedAddress } from "@/lib/http/schemas";

export const receiptEmailParams = z.object({ orderId: z.string() });
export const receiptEmailBody = z.object({
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Where the receipt (and any refund notice) goes"),
  locale: customerLocale
    .optional()
    .describe(
      "The language the receipt and refund notices are written in (the payment page's); without it, the request's language cookie or Accept-Language, else the store's, else English",
    ),
});
export const receiptEmailJson = z.object({
  email: z.string(),
  locale: customerLocale.describe("The language the receipt and refund notices are written in"),
});

/** What the payment page hears after asking for a refund-address link (issue 52). */
export const refundAddressLinkJson = z.object({
  sent_to: z.string().describe("The address the link went to, masked (j•••@example.com): the one given while the payment was due"),
  expires_at: timestamp.describe("When the link stops working (24 hours)"),
});

/** The mailed link's form: the token from its URL and the customer's address. */
export const refundAddressByLinkBody = z.object({
  token: z.string().min(1).max(200).describe("The `token` of the mailed link's URL"),
  refund_address: typedAddress.describe("Your address on the order's blockchain, for the merchant to send the money back to"),
});

export const refundAddressByLinkJson = z.object({
  order_id: z.string(),
  refund_address: evmAddress,
  refund_address_at: timestamp,
  refund_address_source: z.literal("email_link"),
});
