import { serve } from "inngest/next";
import { NextRequest } from "next/server";
import { env } from "@/lib/env";
import { notFound } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { inngest } from "@/lib/jobs/inngest/client";
import { functions } from "@/lib/engine/inngest/functions";

const served = serve({ client: inngest, functions });

/** Inngest's own handler when JOBS_DRIVER=inngest; otherwise the endpoint is off (404 in the error envelope). */
function inngestEndpoint(method: "GET" | "POST" | "PUT") {
  return plainRoute({ route: "/api/inngest" }, async (request, context: unknown) => {
    if (env.JOBS_DRIVER !== "inngest") throw notFound("Endpoint");
    return served[method](request instanceof NextRequest ? request : new NextRequest(request), context);
  });
}

// GET/POST/PUT /api/inngest – the Inngest serve endpoint (JOBS_DRIVER=inngest); no logic here
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: inngestEndpoint("GET"),
  POST: inngestEndpoint("POST"),
  PUT: inngestEndpoint("PUT"),
});
