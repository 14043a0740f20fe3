/**
 * The languages of the customer pages (pay, link and receipt pages) and of the dashboard (issue 52
 * item 5: the same seven). Pure, for the proxy (edge), the server and the tests.
 */
export const customerLocales = ["en", "de", "fr", "es", "pt", "ja", "zh"] as const;
export type CustomerLocale = (typeof customerLocales)[number];
export const defaultCustomerLocale: CustomerLocale = "en";

/** The customer's choice from the language switcher (a year; Accept-Language decides without it). */
export const localeCookieName = "NEXT_LOCALE";
export const localeCookieMaxAge = 365 * 24 * 3600;

/** Set by proxy.ts on customer pages only: the locale that request renders in. */
export const customerLocaleHeader = "x-customer-locale";

/**
 * Set by proxy.ts on the dashboard's pages and the pages before it (sign in, register, password
 * reset, invitation, e-mail verification): the negotiated locale (cookie, then Accept-Language).
 * i18n/request.ts prefers the signed-in login's own choice over it. Docs and the landing page render in English.
 */
export const dashboardLocaleHeader = "x-dashboard-locale";

/** Each language in its own words, for the switcher. */
export const localeNames: Record<CustomerLocale, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  pt: "Português",
  ja: "日本語",
  zh: "中文",
};

export function isCustomerLocale(value: unknown): value is CustomerLocale {
  return typeof value === "string" && (customerLocales as readonly string[]).includes(value);
}

/** The pages that are shown in the customer's language: /pay/{id}, its receipt, /link/{id}, /invoice/{id}, /subscribe/… */
export function isCustomerPage(pathname: string): boolean {
  return pathname.startsWith("/pay/") || pathname.startsWith("/link/") || pathname.startsWith("/invoice/") || pathname.startsWith("/subscribe/");
}

/** The dashboard's pages. */
export function isDashboardPage(pathname: string): boolean {
  return pathname === "/dashboard" || pathname.startsWith("/dashboard/");
}

/** The pages before the dashboard (app/(auth)): no login is known yet, so the browser's language (cookie, then Accept-Language). */
export const authPagePaths = ["/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/verify-email", "/invite"] as const;

export function isAuthPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return (authPagePaths as readonly string[]).includes(path);
}

/**
 * The first language of Accept-Language (by q, then order) that the pages speak, matched on its
 * primary subtag ("de-CH" → de, "zh-Hant-TW" → zh); null when none is.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): CustomerLocale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isCustomerLocale) ?? null;
}

/** The switcher's cookie wins, then Accept-Language, then English. */
export function negotiateCustomerLocale(cookie: string | undefined, acceptLanguage: string | null): CustomerLocale {
  if (isCustomerLocale(cookie)) return cookie;
  return localeFromAcceptLanguage(acceptLanguage) ?? defaultCustomerLocale;
}

/**
 * The language a customer page's call to the API comes from: the switcher's cookie, then
 * Accept-Language (the browser sends both with the page's own fetch); null when neither names one
 * the pages speak. For a call that does not name its `locale`.
 */
export function requestCustomerLocale(request: Request): CustomerLocale | null {
  const cookie = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === localeCookieName)?.[1];
  if (isCustomerLocale(cookie)) return cookie;
  return localeFromAcceptLanguage(request.headers.get("accept-language"));
}
