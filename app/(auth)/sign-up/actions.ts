"use server";

import { publicAction } from "@/lib/auth/authed-action";
import { signIn } from "@/lib/auth/next-auth";
import { registerMerchant } from "@/lib/auth/register-merchant";
import { registerBody } from "@/lib/auth/schemas";
import { ApiError } from "@/lib/http/errors";

/** Sign-up form → the same use-case and per-address limit as POST /api/auth/register, then signs in (a redirect). */
export const signUpAction = publicAction(
  registerBody,
  async (input, { db }): Promise<never> => {
    await registerMerchant(db, input);
    await signIn("credentials", { username: input.username, password: input.password, redirectTo: "/dashboard" });
    throw new ApiError("INTERNAL_ERROR", "Sign-up did not complete.");
  },
  // The same limit as POST /api/auth/register (DESIGN: register per client address, 100 an hour).
  { clientLimit: { name: "register", perHour: 100 } },
);
