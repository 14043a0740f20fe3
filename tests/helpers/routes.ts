import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { routeAccess, type RouteKey } from "@/lib/auth/route-access";
import type { Handler } from "./request";

const appApi = path.resolve(__dirname, "../../app/api");
export const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Route files whose routes are not merchant API routes (catch-all 404, Inngest serve endpoint, inbox capture,
 * and next-auth's own session endpoints for the dashboard, which withApi does not wrap).
 */
const outsideTheTable = [/^\[\.\.\.path\]$/, /^inngest$/, /^sandbox\/inbox\/\[token\]$/, /^auth\/\[\.\.\.nextauth\]$/];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name === "route.ts" ? [path.relative(appApi, dir)] : [];
  });
}

/** Every app/api route folder (relative, e.g. "payment-orders/[order_id]"), excluding those outside the table. */
export function routeFolders(): string[] {
  return walk(appApi).filter((folder) => !outsideTheTable.some((re) => re.test(folder.split(path.sep).join("/"))));
}

export function routeKeyParts(key: RouteKey): { method: string; folder: string } {
  const [method, apiPath] = key.split(" ") as [string, string];
  return { method, folder: apiPath.replace(/^\/api\//, "") };
}

export async function loadRouteModule(folder: string): Promise<Record<string, unknown>> {
  return import(path.join(appApi, folder, "route.ts"));
}

/** A handler for a route key, plus placeholder params for its dynamic segments. */
export async function loadRoute(key: RouteKey) {
  const { method, folder } = routeKeyParts(key);
  const mod = await loadRouteModule(folder);
  const handler = mod[method] as Handler | undefined;
  const params: Record<string, string> = {};
  for (const match of folder.matchAll(/\[([^\]]+)\]/g)) params[match[1]!] = "999999";
  const urlPath = "/api/" + folder.replace(/\[([^\]]+)\]/g, "999999") + "/";
  return { method, handler, params, urlPath };
}

export const allRouteKeys = Object.keys(routeAccess) as RouteKey[];
