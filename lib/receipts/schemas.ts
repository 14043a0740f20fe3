import { z } from "zod";

export const receiptEmailParams = z.object({ orderId: z.string() });
export const receiptEmailBody = z.object({
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Where the receipt (and any refund notice) goes"),
});
export const receiptEmailJson = z.object({ email: z.string() });
