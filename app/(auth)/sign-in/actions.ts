"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import type { ActionResult } from "@/lib/auth/authed-action";
import { signIn } from "@/lib/auth/next-auth";
import { safeCallbackPath } from "../public-action";

/** Sign-in form → next-auth's credentials provider (the login use-case, throttling included); redirects on success. */
export async function signInAction(form: FormData): Promise<ActionResult<never>> {
  const username = form.get("username");
  const password = form.get("password");
  if (typeof username !== "string" || !username || typeof password !== "string" || !password) {
    return { ok: false, error: { code: "VALIDATION_ERROR", message: "Enter your username and password." } };
  }
  try {
    await signIn("credentials", { username, password, redirectTo: safeCallbackPath(form.get("callbackUrl")) });
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "rate_limited") {
      return { ok: false, error: { code: "RATE_LIMITED", message: "Too many failed sign-ins. Wait 15 minutes and try again." } };
    }
    if (error instanceof AuthError) return { ok: false, error: { code: "INVALID_CREDENTIALS", message: "Invalid username or password." } };
    throw error;
  }
  return { ok: false, error: { code: "INTERNAL_ERROR", message: "Sign-in did not complete." } };
}
