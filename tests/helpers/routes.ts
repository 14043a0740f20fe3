import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { apiRoutes, findApiRoute } from "@/lib/api-routes";
import { httpMethods, routeKeyOf, type RouteAccess, type RouteDefinition } from "@/lib/http/define-route";
import type { Handler } from "./request";

const appApi = path.resolve(__dirname, "../../app/api");
export { httpMethods };

/** Route files that are not API operations at all (catch-all 404, Inngest serve endpoint, next-auth's session endpoints). */
const notOperations = [/^\[\.\.\.path\]$/, /^inngest$/, /^auth\/\[\.\.\.nextauth\]$/];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name === "route.ts" ? [path.relative(appApi, dir).split(path.sep).join("/")] : [];
  });
}

/** Every app/api route folder holding operations (relative, e.g. "payment-orders/[orderId]"). */
export function routeFolders(): string[] {
  return walk(appApi).filter((folder) => !notOperations.some((re) => re.test(folder)));
}

export function routeKeyParts(key: string): { method: string; folder: string } {
  const [method, apiPath] = key.split(" ") as [string, string];
  return { method, folder: apiPath.replace(/^\/api\//, "") };
}

export async function loadRouteModule(folder: string): Promise<Record<string, unknown>> {
  return import(path.join(appApi, folder, "route.ts"));
}

/** The definition a route file's exported handler carries (withApi and plainRoute attach it), if any. */
export function definitionOf(handler: unknown): RouteDefinition | undefined {
  return (handler as { definition?: RouteDefinition } | undefined)?.definition;
}

/** A handler for a route key, plus placeholder params for its dynamic segments. */
export async function loadRoute(key: string) {
  const { method, folder } = routeKeyParts(key);
  const mod = await loadRouteModule(folder);
  const handler = mod[method] as Handler | undefined;
  const params: Record<string, string> = {};
  for (const match of folder.matchAll(/\[([^\]]+)\]/g)) params[match[1]!] = "999999";
  const urlPath = "/api/" + folder.replace(/\[([^\]]+)\]/g, "999999") + "/";
  return { method, handler, params, urlPath, definition: findApiRoute(key) };
}

/** Every route key of the table, e.g. "GET /api/payment-orders/[orderId]". */
export const allRouteKeys = apiRoutes.map(routeKeyOf);

/** Who may call a route of the table. */
export function accessOf(key: string): RouteAccess {
  const route = findApiRoute(key);
  if (!route) throw new Error(`${key} is not in the route table`);
  return route.access;
}
