import "server-only";
import { getDb } from "@/lib/db/client";
import type { CustomerLocale } from "@/lib/i18n/locales";
import { describeError, log } from "@/lib/log";
import { resolveDashboardLocale } from "./dashboard-locale";
import { auth } from "./next-auth";

/**
 * The dashboard language of this request: the signed-in login's choice, else `negotiated`. Reads
 * only the session cookie's login id (the pages check the session in full themselves); a database
 * that does not answer leaves the negotiated language rather than failing the page here.
 */
export async function sessionDashboardLocale(negotiated: CustomerLocale): Promise<CustomerLocale> {
  const session = (await auth()) as { merchantId?: unknown } | null;
  const userId = typeof session?.merchantId === "number" && Number.isSafeInteger(session.merchantId) ? session.merchantId : null;
  if (userId === null) return negotiated;
  try {
    return await resolveDashboardLocale(await getDb(), userId, negotiated);
  } catch (error) {
    log.warn("dashboard-locale", describeError(error));
    return negotiated;
  }
}
