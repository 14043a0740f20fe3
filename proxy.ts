import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/envelope";

/**
 * Paths Next.js cannot percent-decode (e.g. `/api/payment-orders/%ff/`) make its router throw
 * before any route runs, and `next start` then answers a bare 500 "Internal Server Error". Such a
 * path names no resource: the API answers 404 NOT_FOUND in its error envelope, pages a plain 400.
 * Every other request passes straight through (authorisation stays in withApi and the pages).
 */
export function proxy(request: NextRequest): Response {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    if (request.nextUrl.pathname.startsWith("/api/")) return errorResponse("NOT_FOUND", "No API endpoint at this path (it is not valid percent-encoding).");
    return new Response("Bad Request: the path is not valid percent-encoding.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  return NextResponse.next();
}

export const config = {
  // Only a path with a percent sign can fail to decode. Next tests the matcher against the raw
  // (still encoded) path, so every other request skips the proxy, and with it Next's copy of the
  // request body for the proxy: a measurable share of each API request (bench/orders.ts).
  matcher: "/(.*%.*)",
};
