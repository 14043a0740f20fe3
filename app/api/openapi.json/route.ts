import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { openApiRoutes } from "@/lib/openapi/routes";

let document: Record<string, unknown> | undefined;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/openapi.json – the OpenAPI 3.1 document of this API, generated from the route definitions and their zod schemas
  GET: withApi(openApiRoutes.document, async ({ url }) => {
    document ??= buildOpenApiDocument();
    const body = { ...document, servers: [{ url: url.origin, description: "This deployment" }] };
    return { ...bare(body), headers: { "cache-control": "public, max-age=300" } };
  }),
});
