import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { customerLocaleHeader, defaultCustomerLocale, isCustomerLocale } from "@/lib/i18n/locales";

/**
 * next-intl without i18n routing: the URL carries no locale (/pay/{id} stays as the API returns it).
 * proxy.ts negotiates it for the customer pages (cookie, then Accept-Language) and passes it in a
 * request header; every other page (dashboard, docs, landing) is English. Only the active
 * locale's messages are loaded.
 */
export default getRequestConfig(async () => {
  const requested = (await headers()).get(customerLocaleHeader);
  const locale = isCustomerLocale(requested) ? requested : defaultCustomerLocale;
  return {
    locale,
    messages: (await import(`../messages/${locale}.json`)).default,
    // Dates on the customer pages are shown in UTC, saying so: server and browser render the same text.
    timeZone: "UTC",
  };
});
