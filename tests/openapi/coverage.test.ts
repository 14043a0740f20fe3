import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { routeAccess, type RouteKey } from "@/lib/auth/route-access";
import { splitRouteKey } from "@/lib/openapi/document";
import { extraOperations, operations, undocumentedRoutes } from "@/lib/openapi/registry";
import { openApiDocument } from "../helpers/openapi";

const appApi = path.resolve(__dirname, "../../app/api");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const routeKeys = Object.keys(routeAccess) as RouteKey[];

function routeFolders(dir = appApi): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFolders(full);
    return name === "route.ts" ? [path.relative(appApi, dir).split(path.sep).join("/")] : [];
  });
}

/** "payment-orders/[orderId]" → "/api/payment-orders/{orderId}" (the document's form). */
const documentPath = (folder: string) => `/api/${folder}`.replace(/\[([^\]]+)\]/g, "{$1}");

const excluded = (folder: string, method?: string) =>
  Object.keys(undocumentedRoutes).some((entry) => {
    const [where, which] = entry.split(" ");
    return where === folder && (which === undefined || (method !== undefined && which.split(",").includes(method)));
  });

async function exportedMethods(folder: string): Promise<Array<{ method: string; handler: any }>> {
  const mod: Record<string, unknown> = await import(path.join(appApi, folder, "route.ts"));
  return methods.filter((m) => typeof mod[m] === "function").map((method) => ({ method, handler: mod[method] }));
}

describe("the document covers the code", () => {
  test("every route in the route table has a documented operation in the registry", () => {
    const missing = routeKeys.filter((key) => !operations[key]);
    expect(missing, "add these to lib/openapi/registry.ts").toEqual([]);
    for (const [path, item] of Object.entries<any>(openApiDocument.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) expect(operation["x-undocumented"], `${method} ${path}`).toBeUndefined();
    }
  });

  test("every route file and exported method under app/api has an operation (or a stated reason not to)", async () => {
    const folders = routeFolders();
    expect(folders.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const folder of folders) {
      if (excluded(folder)) continue;
      for (const { method } of await exportedMethods(folder)) {
        if (excluded(folder, method)) continue;
        if (!openApiDocument.paths[documentPath(folder)]?.[method.toLowerCase()]) missing.push(`${method} /api/${folder}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("every documented operation exists: its route file exports the method", async () => {
    const absent: string[] = [];
    for (const [docPath, item] of Object.entries<any>(openApiDocument.paths)) {
      const folder = docPath.replace(/^\/api\//, "").replace(/\{([^}]+)\}/g, "[$1]");
      let exported: string[] = [];
      try {
        exported = (await exportedMethods(folder)).map((e) => e.method.toLowerCase());
      } catch {
        exported = [];
      }
      for (const method of Object.keys(item)) if (!exported.includes(method)) absent.push(`${method.toUpperCase()} ${docPath}`);
    }
    expect(absent).toEqual([]);
  });

  test("the registry documents the very schemas each route validates with", async () => {
    for (const key of routeKeys) {
      const doc = operations[key];
      if (!doc) continue;
      const { method } = splitRouteKey(key);
      const folder = key.split(" ")[1]!.replace(/^\/api\//, "");
      const handler = (await exportedMethods(folder)).find((e) => e.method.toLowerCase() === method)?.handler;
      expect(handler, key).toBeDefined();
      const options = handler.apiOptions;
      expect(options?.route, `${key}: not a withApi route`).toBe(key);
      expect(doc.body === options.body, `${key}: body schema differs from the route's`).toBe(true);
      expect(doc.query === options.query, `${key}: query schema differs from the route's`).toBe(true);
      expect(doc.params === options.params, `${key}: params schema differs from the route's`).toBe(true);
      expect(Boolean(doc.sandboxOnly), `${key}: sandboxOnly`).toBe(Boolean(options.sandboxOnly));
    }
  });

  test("routes outside the table are documented as extra operations", () => {
    for (const key of Object.keys(extraOperations)) {
      const { method, path: docPath } = splitRouteKey(key);
      expect(openApiDocument.paths[docPath]?.[method], key).toBeDefined();
      expect(openApiDocument.paths[docPath][method].security).toEqual([]);
    }
  });
});
