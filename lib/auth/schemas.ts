import { z } from "zod";

export const registerBody = z.object({
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters.")
    .max(150, "Username must be at most 150 characters.")
    .regex(/^[A-Za-z0-9_.@+-]+$/, "Username may contain only letters, digits and _ . @ + -.")
    .describe("Login name, unique regardless of case"),
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Contact email, unique regardless of case"),
  password: z
    .string()
    .min(8, "Password must be at least 8 characters.")
    .max(256, "Password must be at most 256 characters.")
    .describe("At least 8 characters; never returned"),
  shop_name: z.string().trim().min(1, "Shop name must not be empty.").max(200).describe("Shown to customers on the payment page"),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  username: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
});
export type LoginBody = z.infer<typeof loginBody>;

export const refreshBody = z.object({
  refresh: z.string().min(1).max(4096).describe("The refresh token from login or the last refresh"),
});
export type RefreshBody = z.infer<typeof refreshBody>;
