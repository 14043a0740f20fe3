import { eq } from "drizzle-orm";
import { merchants } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { customerLocales, isCustomerLocale, type CustomerLocale } from "@/lib/i18n/locales";

/**
 * The dashboard's language is the login's own choice (issue 52 item 5), kept on the person so it
 * follows them to another browser; without one the request's negotiated language (the switcher's
 * cookie, then Accept-Language) applies.
 */
export async function dashboardLocaleOf(db: DbOrTx, userId: number): Promise<CustomerLocale | null> {
  const [row] = await db.select({ locale: merchants.dashboardLocale }).from(merchants).where(eq(merchants.id, userId)).limit(1);
  return isCustomerLocale(row?.locale) ? row.locale : null;
}

/** Keeps `locale` as the login's dashboard language; anything but one of the seven languages is 400 VALIDATION_ERROR. */
export async function setDashboardLocale(db: DbOrTx, userId: number, locale: unknown): Promise<CustomerLocale> {
  if (!isCustomerLocale(locale)) {
    throw validationError({ locale: [`Must be one of ${customerLocales.join(", ")}.`] }, "Unknown language.");
  }
  await db.update(merchants).set({ dashboardLocale: locale, updatedAt: new Date() }).where(eq(merchants.id, userId));
  return locale;
}

/** The language a dashboard request renders in: the login's choice, else the negotiated one. */
export async function resolveDashboardLocale(db: DbOrTx, userId: number | null, negotiated: CustomerLocale): Promise<CustomerLocale> {
  return (userId !== null ? await dashboardLocaleOf(db, userId) : null) ?? negotiated;
}
