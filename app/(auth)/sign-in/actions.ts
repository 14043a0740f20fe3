"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { publicAction } from "@/lib/auth/authed-action";
import { signIn } from "@/lib/auth/next-auth";
import { loginBody } from "@/lib/auth/schemas";
import { ApiError } from "@/lib/http/errors";
import { safeCallbackPath } from "@/lib/http/safe-redirect";

/** The login fields, plus where to go after (only same-site paths are followed: no open redirect). */
const signInForm = loginBody.extend({ callbackUrl: z.unknown().optional().transform((value) => safeCallbackPath(value)) });

/** Sign-in form → next-auth's credentials provider (the login use-case, throttling included); redirects on success. */
export const signInAction = publicAction(signInForm, async ({ username, password, callbackUrl }): Promise<never> => {
  try {
    await signIn("credentials", { username, password, redirectTo: callbackUrl });
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "rate_limited") throw new ApiError("RATE_LIMITED", "Too many failed sign-ins. Wait 15 minutes and try again.");
    if (error instanceof AuthError) throw new ApiError("INVALID_CREDENTIALS", "Invalid username or password.");
    throw error;
  }
  throw new ApiError("INTERNAL_ERROR", "Sign-in did not complete.");
});
