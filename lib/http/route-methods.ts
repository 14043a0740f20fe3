import "server-only";
import type { RouteDefinition } from "./define-route";
import { httpMethods, type HttpMethod } from "./define-route";
import { ApiError } from "./errors";
import { plainRoute } from "./plain-route";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route file has its own request and params types (NextRequest, { params: Promise<{ orderId: string }> }, …).
type Handler = (request: any, context?: any) => Promise<Response>;
type WithDefinition = { definition?: RouteDefinition };

export type RouteMethods = Record<HttpMethod | "OPTIONS", Handler>;

/**
 * Every method a route file answers, for `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } =
 * routeMethods({ … })`. A method the file does not have answers 405 METHOD_NOT_ALLOWED in the error
 * envelope with an `Allow` header (Next's own answer is an empty body); OPTIONS answers 204 with
 * `Allow`. A withApi handler must sit under its definition's method (checked when the file loads).
 */
export function routeMethods(handlers: Partial<Record<HttpMethod, Handler & WithDefinition>>): RouteMethods {
  const present = httpMethods.filter((method) => handlers[method]);
  const definitions = present.map((method) => handlers[method]!.definition).filter((d): d is RouteDefinition => d !== undefined);
  for (const method of present) {
    const definition = handlers[method]!.definition;
    if (definition && definition.method !== method) throw new Error(`${definition.method} ${definition.path} is exported as ${method}`);
  }
  const allow = [...present, ...(present.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const options = {
    route: definitions[0]?.path ?? "route",
    // A file of sandbox tools does not exist in live mode: 404 there, whatever the method.
    sandboxOnly: definitions.length > 0 && definitions.length === present.length && definitions.every((d) => d.sandboxOnly),
  };
  const notAllowed = plainRoute(options, async (request) => {
    throw new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; allowed: ${allow}.`, undefined, { headers: { Allow: allow } });
  });
  const answerOptions = plainRoute(options, async () => new Response(null, { status: 204, headers: { Allow: allow } }));
  const [GET, POST, PUT, PATCH, DELETE] = httpMethods.map((method) => handlers[method] ?? notAllowed) as [Handler, Handler, Handler, Handler, Handler];
  return { GET, POST, PUT, PATCH, DELETE, OPTIONS: answerOptions };
}
