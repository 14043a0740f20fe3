import { z } from "zod";
import { timestamp } from "@/lib/http/schemas";
import { registerBody } from "@/lib/auth/schemas";

const linkToken = z.string().min(1, "This field is required.").max(200).describe("The `token` parameter of the emailed link");

export const passwordResetRequestBody = z.object({
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("The account's email address"),
});

export const passwordResetConfirmBody = z.object({
  token: linkToken,
  password: registerBody.shape.password,
});

export const verifyEmailBody = z.object({ token: linkToken });

export const messageJson = z.object({ message: z.string() });

export const verifiedEmailJson = z.object({
  email: z.string(),
  email_verified_at: timestamp,
});

export const resentVerificationJson = z.object({ message: z.string(), email: z.string().describe("Where the link went") });

export const unsubscribeQuery = z.object({ token: linkToken.describe("The `token` parameter of the unsubscribe link") });
export const unsubscribedJson = z.object({ email: z.string().describe("The address the store's mail no longer goes to") });
