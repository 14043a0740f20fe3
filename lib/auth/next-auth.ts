import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cookies, headers } from "next/headers";
import { runAsActor } from "@/lib/audit/context";
import { getDb } from "@/lib/db/client";
import { accountsOfUser } from "@/lib/members/members";
import { env } from "@/lib/env";
import { sameSiteRedirect } from "@/lib/http/safe-redirect";
import { clientIpOf } from "@/lib/http/client-address";
import { describeError, log } from "@/lib/log";
import { authorizeCredentials } from "./dashboard-sign-in";
import { touchLoginSession } from "./login-session-queries";
import { findMerchantById, isRefreshFamilyRevoked } from "./queries";
import { getAuthSecret } from "./secret";
import { isRole, type Role } from "./roles";
import { revokeLoginFamily } from "./sessions";

/** A dashboard session lives as long as an access token (spec › Limits: 24 hours). */
export const sessionMaxAgeSeconds = 24 * 60 * 60;

interface SessionClaims {
  /** The login (the person); the account it acts in is the store switcher's cookie. */
  merchantId: number;
  username: string;
  /** The refresh-token family the login opened: signing out revokes it, which ends this session too. */
  familyId?: string;
}

/** The next-auth secret: AUTH_SECRET, or the development secret the API's JWTs use (lib/auth/secret.ts). */
function nextAuthSecret(): string {
  return env.AUTH_SECRET ?? new TextDecoder().decode(getAuthSecret());
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: nextAuthSecret(),
  // next start behind whatever host the merchant reaches it on; the app has no other host check.
  trustHost: true,
  session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds },
  pages: { signIn: "/sign-in" },
  logger: {
    error: (error) => {
      // A wrong password is routine, not an error worth a stack trace.
      if (error instanceof CredentialsSignin) return;
      log.error("next-auth", describeError(error));
    },
    warn: (code) => log.warn("next-auth", { code }),
    debug: () => {},
  },
  providers: [
    Credentials({
      credentials: {
        username: { label: "Username" },
        password: { label: "Password", type: "password" },
        code: { label: "Authentication code" },
        passkey: { label: "Passkey" },
      },
      // The same use-cases as POST /api/auth/login/ and its second step: password, second factor, throttling.
      async authorize(credentials, request) {
        const clientIp = clientIpOf(request);
        const actor = { kind: "public" as const, label: null, clientIp, userAgent: request.headers.get("user-agent"), via: "dashboard" as const };
        return runAsActor(actor, async () => authorizeCredentials(await getDb(), credentials, clientIp));
      },
    }),
  ],
  callbacks: {
    redirect: sameSiteRedirect,
    jwt({ token, user }) {
      if (user) {
        const u = user as { id?: string; name?: string | null; familyId?: string };
        token.merchantId = Number(u.id);
        token.username = u.name ?? "";
        if (u.familyId) token.familyId = u.familyId;
      }
      return token;
    },
    session({ session, token }) {
      const claims = token as unknown as SessionClaims;
      return { ...session, merchantId: claims.merchantId, username: claims.username, familyId: claims.familyId };
    },
  },
  events: {
    async signOut(message) {
      const token = "token" in message ? (message.token as Partial<SessionClaims> | null) : null;
      if (token?.familyId) await revokeLoginFamily(await getDb(), token.familyId, new Date());
    },
  },
}));

export interface SessionMerchant {
  /** The merchant account the dashboard acts in (the store switcher's choice). */
  merchantId: number;
  username: string;
  /** The login family of this dashboard session (its row on the sessions page). */
  familyId?: string;
  /** The signed-in login and its role in that account (issue 28). */
  userId: number;
  role: Role;
}

/** The address of the current page or action request (the sessions page's "last seen from"). */
async function requestClientIp(): Promise<string | null> {
  try {
    return clientIpOf(new Request("http://localhost/", { headers: new Headers(await headers()) }));
  } catch {
    return null;
  }
}

/** The store switcher's choice: an account id; a plain cookie is enough, membership is checked on every read. */
export const activeAccountCookie = "gw_account";

/**
 * The signed-in login in its active account, or null. Checked against the database on every call:
 * a deleted account, a signed-out (revoked) login family or a removed membership ends the session
 * (for that account) even though its cookie is still valid.
 */
export async function getSessionMerchant(): Promise<SessionMerchant | null> {
  const session = (await auth()) as (Partial<SessionClaims> & object) | null;
  if (!session || typeof session.merchantId !== "number" || !Number.isSafeInteger(session.merchantId)) return null;
  const db = await getDb();
  if (!session.familyId || (await isRefreshFamilyRevoked(db, session.familyId))) return null;
  const user = await findMerchantById(db, session.merchantId);
  if (!user) return null;
  const chosen = Number((await cookies()).get(activeAccountCookie)?.value);
  const accounts = await accountsOfUser(db, user.id);
  const active = accounts.find((a) => a.id === chosen) ?? accounts[0];
  if (!active || !isRole(active.role)) return null;
  await touchLoginSession(db, session.familyId, await requestClientIp(), new Date());
  return { merchantId: active.id, username: user.username, userId: user.id, role: active.role, familyId: session.familyId };
}
