import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/envelope";

/**
 * Paths Next.js cannot percent-decode (e.g. `/api/payment-orders/%ff/`) make its router throw
 * before any route runs, and `next start` then answers a bare 500 "Internal Server Error". Such a
 * path names no resource: the API answers 404 NOT_FOUND in its error envelope, pages a plain 400.
 * Every other request passes straight through (authorisation stays in withApi and the pages).
 */
export function proxy(request: NextRequest): Response {
  if (request.headers.has("next-action") && crossOriginAction(request)) {
    return errorResponse("INSUFFICIENT_PERMISSIONS", "Cross-origin dashboard action refused: its Origin is not this site's host.");
  }
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    if (request.nextUrl.pathname.startsWith("/api/")) return errorResponse("NOT_FOUND", "No API endpoint at this path (it is not valid percent-encoding).");
    return new Response("Bad Request: the path is not valid percent-encoding.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  return NextResponse.next();
}

/**
 * Next refuses a server action whose Origin host differs from X-Forwarded-Host (else Host), with a
 * bare 500 (next/dist/server/app-render/action-handler.js). The same rule, answered first as 403
 * in the error envelope. No Origin (a hand-made request, carrying no browser's cookies unasked) is
 * let through, as Next does; no serverActions.allowedOrigins are configured (next.config.ts).
 */
function crossOriginAction(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  let originHost: string;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    return true;
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return !host || host !== originHost;
}

export const config = {
  // Only a path with a percent sign can fail to decode. Next tests the matcher against the raw
  // (still encoded) path, so every other request skips the proxy, and with it Next's copy of the
  // request body for the proxy: a measurable share of each API request (bench/orders.ts).
  // Server actions (a Next-Action header) pass through it too, for the Origin check.
  matcher: ["/(.*%.*)", { source: "/:path*", has: [{ type: "header", key: "next-action" }] }],
};
