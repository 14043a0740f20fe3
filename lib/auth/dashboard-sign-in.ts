import "server-only";
import { CredentialsSignin } from "next-auth";
import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { verifyToken } from "./jwt";
import { loginBody, passkeyAssertion, type PasskeyAssertion } from "./schemas";
import { login, loginWithSecondFactor } from "./sessions";

export const dashboardSignInCredentials = loginBody.extend({
  code: z.string().trim().max(64).optional().describe("The second factor, asked for once the password proved right on an account with 2FA"),
  passkey: z.string().max(65536).optional().describe("Instead of code: the passkey assertion (JSON) over the options from the sign-in form's passkey action"),
});

/** The form's `passkey` field (JSON text) as an assertion, or null when it is not one. */
function passkeyOf(text: string | undefined): PasskeyAssertion | null {
  if (!text) return null;
  try {
    const parsed = passkeyAssertion.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type DashboardSignIn =
  | { kind: "signed_in"; user: { id: string; name: string; familyId?: string } }
  | { kind: "invalid" }
  | { kind: "second_factor_required" }
  | { kind: "rate_limited" };

/**
 * The dashboard's sign-in (next-auth credentials `authorize`): the same use-cases as
 * POST /api/auth/login/ and its second step. On an account with a second factor the password
 * alone answers `second_factor_required` (the form then asks for a code); the password and a code
 * complete the login challenge the password step issued.
 */
export async function authorizeDashboardSignIn(db: Db, credentials: unknown, clientIp: string): Promise<DashboardSignIn> {
  const parsed = dashboardSignInCredentials.safeParse(credentials);
  if (!parsed.success) return { kind: "invalid" };
  const { username, password, code } = parsed.data;
  const passkey = passkeyOf(parsed.data.passkey);
  if (parsed.data.passkey && !passkey) return { kind: "invalid" };
  try {
    let result: Awaited<ReturnType<typeof login>>;
    try {
      result = await login(db, username, password, clientIp);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "SECOND_FACTOR_REQUIRED") throw error;
      if (!code && !passkey) return { kind: "second_factor_required" };
      const { challenge } = (error.extra?.body?.second_factor ?? {}) as { challenge?: string };
      if (!challenge) throw error;
      result = await loginWithSecondFactor(db, challenge, code || undefined, clientIp, new Date(), undefined, passkey ?? undefined);
    }
    const claims = await verifyToken(result.access, "access");
    return { kind: "signed_in", user: { id: String(result.merchant.id), name: result.merchant.username, familyId: claims?.familyId } };
  } catch (error) {
    if (error instanceof ApiError && error.code === "INVALID_CREDENTIALS") return { kind: "invalid" };
    if (error instanceof ApiError && error.code === "RATE_LIMITED") return { kind: "rate_limited" };
    throw error;
  }
}

/** Shown on the sign-in form; the code travels in a URL, so it names no detail (next-auth's advice). */
export class ThrottledSignin extends CredentialsSignin {
  code = "rate_limited";
}

/** The password was right; the account has a second factor and no code came with it. */
export class SecondFactorSignin extends CredentialsSignin {
  code = "second_factor_required";
}

/** next-auth's `authorize`: the user, null (wrong credentials) or a CredentialsSignin the sign-in action turns into a message. */
export async function authorizeCredentials(db: Db, credentials: unknown, clientIp: string): Promise<{ id: string; name: string; familyId?: string } | null> {
  const outcome = await authorizeDashboardSignIn(db, credentials, clientIp);
  if (outcome.kind === "signed_in") return outcome.user;
  if (outcome.kind === "rate_limited") throw new ThrottledSignin();
  if (outcome.kind === "second_factor_required") throw new SecondFactorSignin();
  return null;
}
