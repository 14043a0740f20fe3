import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, walletConnectConfigured } from "@/lib/http/content-security-policy";
import { errorResponse } from "@/lib/http/envelope";
import { requestPathHeader } from "@/lib/http/safe-redirect";
import {
  customerLocaleHeader,
  dashboardLocaleHeader,
  isAuthPage,
  isCustomerPage,
  isDashboardPage,
  localeCookieName,
  negotiateCustomerLocale,
} from "@/lib/i18n/locales";

/**
 * Paths Next.js cannot percent-decode (e.g. `/api/payment-orders/%ff/`) make its router throw
 * before any route runs, and `next start` then answers a bare 500 "Internal Server Error". Such a
 * path names no resource: the API answers 404 NOT_FOUND in its error envelope, pages a plain 400.
 * The customer pages (/pay/…, /link/…, /invoice/…, /subscribe/…) get their language here (the switcher's cookie, then
 * Accept-Language) in a request header that i18n/request.ts reads; the dashboard's pages get the
 * same negotiated language in their own header (a signed-in login's choice wins there), and so do the sign-in, sign-up,
 * password, verification and invitation pages (no login is known there: the browser's language). The pages that offer
 * WalletConnect (/pay/…, /subscribe/…) get their Content-Security-Policy here, at run time: WalletConnect's sources only
 * when WALLETCONNECT_PROJECT_ID is set (next.config.ts's headers, fixed at build time, skip these).
 * The dashboard pages get their own path in a request header (a signed-out visit signs in and comes back).
 * Every other request passes straight through (authorisation stays in withApi and the pages).
 */
export function proxy(request: NextRequest): Response {
  if (isCrossOriginAction(request)) return errorResponse("CROSS_ORIGIN_REQUEST", "This form was sent from another site.");
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    if (request.nextUrl.pathname.startsWith("/api/")) return errorResponse("NOT_FOUND", "No API endpoint at this path (it is not valid percent-encoding).");
    return new Response("Bad Request: the path is not valid percent-encoding.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  if (isCustomerPage(request.nextUrl.pathname)) {
    const headers = new Headers(request.headers);
    headers.set(customerLocaleHeader, negotiateCustomerLocale(request.cookies.get(localeCookieName)?.value, request.headers.get("accept-language")));
    const response = NextResponse.next({ request: { headers } });
    if (walletPage(request.nextUrl.pathname)) response.headers.set("Content-Security-Policy", payPagePolicy());
    return response;
  }
  if (isDashboardPage(request.nextUrl.pathname)) {
    const headers = new Headers(request.headers);
    headers.set(dashboardLocaleHeader, negotiateCustomerLocale(request.cookies.get(localeCookieName)?.value, request.headers.get("accept-language")));
    // The dashboard's layout sends a signed-out visit to the sign-in page with this path, to come back to it.
    headers.set(requestPathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
    return NextResponse.next({ request: { headers } });
  }
  if (isAuthPage(request.nextUrl.pathname)) {
    const headers = new Headers(request.headers);
    headers.set(dashboardLocaleHeader, negotiateCustomerLocale(request.cookies.get(localeCookieName)?.value, request.headers.get("accept-language")));
    return NextResponse.next({ request: { headers } });
  }
  return NextResponse.next();
}

/** The pages that offer WalletConnect: the payment page and the subscribe pages (their CSP is set here, at run time). */
export function walletPage(pathname: string): boolean {
  return pathname.startsWith("/pay/") || pathname.startsWith("/subscribe/");
}

/** The payment pages' CSP, built once per process (the environment does not change while it runs). */
let payPolicy: string | undefined;
function payPagePolicy(): string {
  return (payPolicy ??= contentSecurityPolicy({ dev: process.env.NODE_ENV === "development", walletConnect: walletConnectConfigured() }));
}

/**
 * A server action (a dashboard form) posted from another site. Next refuses it too, but by throwing,
 * which `next start` answers with a bare 500; this answers 403 in the error envelope first, with
 * the same rule as Next: the Origin's host must be the request's (X-Forwarded-Host, else Host).
 */
export function isCrossOriginAction(request: Request): boolean {
  if (request.method !== "POST" || !request.headers.has("next-action")) return false;
  const origin = request.headers.get("origin");
  if (!origin) return false; // old browsers send none; Next lets those through as well
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true; // "null" (sandboxed iframes, data: URLs) and garbage are never our own pages
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return !host || originHost.toLowerCase() !== host.toLowerCase();
}

export const config = {
  // Only a path with a percent sign can fail to decode. Next tests the matcher against the raw
  // (still encoded) path, so every other request skips the proxy, and with it Next's copy of the
  // request body for the proxy: a measurable share of each API request (bench/orders.ts).
  // Server actions carry a `next-action` header; only those POSTs go through the origin check.
  // The customer pages, the dashboard and the sign-in pages run it for their language; the dashboard pages also for their own path.
  matcher: [
    "/(.*%.*)",
    "/pay/:path*",
    "/link/:path*",
    "/invoice/:path*",
    "/dashboard",
    "/dashboard/:path*",
    "/subscribe/:path*",
    "/sign-in",
    "/sign-up",
    "/forgot-password",
    "/reset-password",
    "/verify-email",
    "/invite",
    { source: "/((?!api/).*)", has: [{ type: "header", key: "next-action" }] },
  ],
};
