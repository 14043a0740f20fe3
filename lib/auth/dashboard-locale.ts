import { findDashboardLocale, updateDashboardLocale } from "./queries";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { customerLocales, isCustomerLocale, type CustomerLocale } from "@/lib/i18n/locales";

/**
 * The dashboard's language is the login's own choice (issue 52 item 5), kept on the person so it
 * follows them to another browser; without one the request's negotiated language (the switcher's
 * cookie, then Accept-Language) applies.
 */
export async function dashboardLocaleOf(db: DbOrTx, userId: number): Promise<CustomerLocale | null> {
  const locale = await findDashboardLocale(db, userId);
  return isCustomerLocale(locale) ? locale : null;
}

/** Keeps `locale` as the login's dashboard language; anything but one of the seven languages is 400 VALIDATION_ERROR. */
export async function setDashboardLocale(db: DbOrTx, userId: number, locale: unknown): Promise<CustomerLocale> {
  if (!isCustomerLocale(locale)) {
    throw validationError({ locale: [`Must be one of ${customerLocales.join(", ")}.`] }, "Unknown language.");
  }
  await updateDashboardLocale(db, userId, locale, new Date());
  return locale;
}

/** The language a dashboard request renders in: the login's choice, else the negotiated one. */
export async function resolveDashboardLocale(db: DbOrTx, userId: number | null, negotiated: CustomerLocale): Promise<CustomerLocale> {
  return (userId !== null ? await dashboardLocaleOf(db, userId) : null) ?? negotiated;
}
