import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { sessionDashboardLocale } from "@/lib/auth/session-locale";
import { customerLocaleHeader, dashboardLocaleHeader, defaultCustomerLocale, isCustomerLocale, type CustomerLocale } from "@/lib/i18n/locales";

/**
 * next-intl without i18n routing: the URL carries no locale (/pay/{id} stays as the API returns it).
 * proxy.ts negotiates it (cookie, then Accept-Language) for the customer pages and for the dashboard,
 * and passes it in a request header; on the dashboard the signed-in login's own choice (Settings, the
 * sidebar's switcher) wins over it; the sign-in pages get the dashboard's header too (no login yet: the browser's language).
 * Every other page (docs, landing) is English. Only the active locale's messages are loaded.
 */
export default getRequestConfig(async () => {
  const requestHeaders = await headers();
  const customer = requestHeaders.get(customerLocaleHeader);
  const dashboard = requestHeaders.get(dashboardLocaleHeader);
  let locale: CustomerLocale = defaultCustomerLocale;
  if (isCustomerLocale(customer)) locale = customer;
  else if (isCustomerLocale(dashboard)) locale = await sessionDashboardLocale(dashboard);
  return {
    locale,
    messages: (await import(`../messages/${locale}.json`)).default,
    // Dates on the customer pages are shown in UTC, saying so: server and browser render the same text.
    timeZone: "UTC",
  };
});
