import { getSessionMerchant } from "@/lib/auth/next-auth";
import { setDashboardLocale } from "@/lib/auth/dashboard-locale";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { customerLocales, isCustomerLocale, localeCookieMaxAge, localeCookieName } from "@/lib/i18n/locales";

function localeCookie(request: Request, locale: string): string {
  const secure = request.headers.get("x-forwarded-proto") === "https" || new URL(request.url).protocol === "https:";
  return `${localeCookieName}=${locale}; Path=/; Max-Age=${localeCookieMaxAge}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

// GET /language/{locale}?return=/pay/ORD-… – the customer pages' language switcher: keeps the choice in a
// cookie (it wins over Accept-Language, proxy.ts) and goes back to the page (same-site paths only).
async function switchLanguage(request: Request, context: { params: Promise<{ locale: string }> }): Promise<Response> {
  const { locale } = await context.params;
  const back = safeReturnPath(new URL(request.url).searchParams.get("return"));
  const headers = new Headers({ location: back, "cache-control": "no-store" });
  if (isCustomerLocale(locale)) headers.append("set-cookie", localeCookie(request, locale));
  return new Response(null, { status: 303, headers });
}

/** A POST sent by a page of another site (its Origin names another host): the switch changes what the login keeps. */
function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || new URL(request.url).host;
  return originHost.toLowerCase() !== host.toLowerCase();
}

// POST /language/{locale}?return=/dashboard/… – the dashboard's language switcher (a form): the cookie as
// above and, for a signed-in login, its own choice kept on the person (issue 52 item 5), then back to
// the page. An unknown language is 400 VALIDATION_ERROR in the error envelope.
const chooseLanguage = plainRoute<{ params: Promise<{ locale: string }> }>({ route: "/language/[locale]" }, async (request, context) => {
  if (isCrossSite(request)) throw new ApiError("CROSS_ORIGIN_REQUEST", "This form was sent from another site.");
  const { locale } = await context.params;
  if (!isCustomerLocale(locale)) throw validationError({ locale: [`Must be one of ${customerLocales.join(", ")}.`] }, "Unknown language.");
  const merchant = await getSessionMerchant();
  if (merchant) await setDashboardLocale(await getDb(), merchant.userId, locale);
  const back = safeReturnPath(new URL(request.url).searchParams.get("return"));
  const headers = new Headers({ location: back, "cache-control": "no-store" });
  headers.append("set-cookie", localeCookie(request, locale));
  return new Response(null, { status: 303, headers });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: switchLanguage, POST: chooseLanguage });
