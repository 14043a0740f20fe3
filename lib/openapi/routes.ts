import { z } from "zod";
import { bareAnswer, defineRoute } from "@/lib/http/define-route";

/** The reference itself. */
export const openApiRoutes = {
  document: defineRoute({
    method: "GET",
    path: "/api/openapi.json",
    access: "public",
    doc: {
      summary: "This OpenAPI document",
      tags: ["Meta"],
      response: bareAnswer(z.object({ openapi: z.string() }).loose().describe("The OpenAPI 3.1 document")),
    },
  }),
};
