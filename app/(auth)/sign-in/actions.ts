"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { actionClientIp, publicAction } from "@/lib/auth/authed-action";
import { loginBody } from "@/lib/auth/schemas";
import { passkeyOptionsAfterPassword } from "@/lib/auth/sessions";
import { signIn } from "@/lib/auth/next-auth";
import { dashboardSignInCredentials } from "@/lib/auth/dashboard-sign-in";
import { ApiError } from "@/lib/http/errors";
import { safeReturnPath } from "@/lib/http/safe-redirect";

/** The login fields, plus where to go after (only same-site paths are followed: no open redirect). */
const signInForm = dashboardSignInCredentials.extend({
  callbackUrl: z
    .unknown()
    .optional()
    .transform((value) => safeReturnPath(value, { fallback: "/dashboard" })),
});

/**
 * Sign-in form → next-auth's credentials provider (the login use-case, throttling and the second
 * factor included); redirects on success. An account with 2FA answers SECOND_FACTOR_REQUIRED to
 * the password alone: the form then shows its code field and sends password and code together.
 */
export const signInAction = publicAction(signInForm, async ({ username, password, code, passkey, callbackUrl }): Promise<never> => {
  try {
    await signIn("credentials", { username, password, ...(code ? { code } : {}), ...(passkey ? { passkey } : {}), redirectTo: callbackUrl });
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "rate_limited")
      throw new ApiError("RATE_LIMITED", "Too many failed sign-ins. Wait 15 minutes and try again.");
    if (error instanceof CredentialsSignin && error.code === "second_factor_required") {
      throw new ApiError("SECOND_FACTOR_REQUIRED", "Enter the code from your authenticator app (or a recovery code).", {
        code: ["Enter the 6-digit code or a recovery code."],
      });
    }
    if (error instanceof AuthError) {
      throw new ApiError(
        "INVALID_CREDENTIALS",
        passkey ? "The passkey could not be verified." : code ? "Invalid username, password or code." : "Invalid username or password.",
      );
    }
    throw error;
  }
  throw new ApiError("INTERNAL_ERROR", "Sign-in did not complete.");
});

/**
 * "Use a passkey" in the second step: the password again, then WebAuthn request options for the
 * account's passkeys (same use-case and per-address limit as POST /api/auth/login/second-factor/passkey-options/).
 */
export const passkeySignInOptionsAction = publicAction(
  loginBody,
  async ({ username, password }, { db }) => passkeyOptionsAfterPassword(db, username, password, await actionClientIp()),
  { clientLimit: { name: "passkey-options", perHour: 100 } },
);
