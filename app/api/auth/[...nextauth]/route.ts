import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/envelope";
import { handlers } from "@/lib/auth/next-auth";
import { routeMethods } from "@/lib/http/route-methods";

// GET, POST /api/auth/{session,csrf,providers,signin,signout,callback,error}/… – next-auth's own endpoints.
// The spec's static routes (api/auth/login, register, token/refresh, verify) are sibling folders and win over this catch-all.
const nextAuthActions = new Set(["session", "csrf", "providers", "signin", "signout", "callback", "error", "verify-request", "webauthn-options"]);

/** Anything under /api/auth/ that is neither a spec route nor a next-auth action is the API's 404. */
function onlyNextAuth(handler: (request: NextRequest) => Promise<Response>) {
  return async (request: NextRequest): Promise<Response> => {
    const action = new URL(request.url).pathname.split("/")[3] ?? "";
    if (!nextAuthActions.has(action)) {
      return errorResponse("NOT_FOUND", "No API endpoint at this path.", { headers: { "x-request-id": randomUUID() } });
    }
    return handler(request);
  };
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: onlyNextAuth(handlers.GET), POST: onlyNextAuth(handlers.POST) });
