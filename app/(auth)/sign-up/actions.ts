"use server";

import type { ActionResult } from "@/lib/auth/authed-action";
import { formDataObject } from "@/lib/auth/authed-action";
import { signIn } from "@/lib/auth/next-auth";
import { consume, rateLimitedError } from "@/lib/auth/rate-limit";
import { registerMerchant } from "@/lib/auth/register-merchant";
import { registerBody } from "@/lib/auth/schemas";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/zod-details";
import { actionClientIp } from "../public-action";

/** Sign-up form → the same use-case and per-address limit as POST /api/auth/register, then signs in. */
export async function signUpAction(form: FormData): Promise<ActionResult<never>> {
  const input = formDataObject(form);
  try {
    const db = await getDb();
    const quota = await consume(db, `register:${await actionClientIp()}`, 100);
    if (quota.exceeded) throw rateLimitedError(quota);
    const parsed = registerBody.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: { code: "VALIDATION_ERROR", message: "Please correct the highlighted fields.", details: fieldErrors(parsed.error) } };
    }
    await registerMerchant(db, parsed.data);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message, ...(error.details && { details: error.details }) } };
    throw error;
  }
  await signIn("credentials", { username: input.username, password: input.password, redirectTo: "/dashboard" });
  return { ok: false, error: { code: "INTERNAL_ERROR", message: "Sign-up did not complete." } };
}
