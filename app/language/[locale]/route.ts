import { routeMethods } from "@/lib/http/route-methods";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { isCustomerLocale, localeCookieMaxAge, localeCookieName } from "@/lib/i18n/locales";

// GET /language/{locale}?return=/pay/ORD-… – the customer pages' language switcher: keeps the choice in a
// cookie (it wins over Accept-Language, proxy.ts) and goes back to the page (same-site paths only).
async function switchLanguage(request: Request, context: { params: Promise<{ locale: string }> }): Promise<Response> {
  const { locale } = await context.params;
  const back = safeReturnPath(new URL(request.url).searchParams.get("return"));
  const headers = new Headers({ location: back, "cache-control": "no-store" });
  if (isCustomerLocale(locale)) {
    const secure = request.headers.get("x-forwarded-proto") === "https" || new URL(request.url).protocol === "https:";
    headers.append("set-cookie", `${localeCookieName}=${locale}; Path=/; Max-Age=${localeCookieMaxAge}; SameSite=Lax${secure ? "; Secure" : ""}`);
  }
  return new Response(null, { status: 303, headers });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: switchLanguage });
