import { describe, expect, test } from "vitest";
import { apiRoutes, routesOutsideTheTable } from "@/lib/api-routes";
import { routeKeyOf } from "@/lib/http/define-route";
import { splitRouteKey } from "@/lib/openapi/document";
import { openApiDocument } from "../helpers/openapi";
import { definitionOf, httpMethods, loadRouteModule, routeFolders } from "../helpers/routes";

type Operation = { "x-permission"?: string; "x-undocumented"?: boolean; summary?: string };
const paths = openApiDocument.paths as Record<string, Record<string, Operation>>;

/** "payment-orders/[orderId]" → "/api/payment-orders/{orderId}" (the document's form). */
const documentPath = (folder: string) => `/api/${folder}`.replace(/\[([^\]]+)\]/g, "{$1}");

const excluded = (folder: string, method: string) =>
  Object.keys(routesOutsideTheTable).some((entry) => {
    const [where, which] = entry.split(" ");
    return where === folder && (which === undefined || which.split(",").includes(method));
  });

describe("the document covers the code", () => {
  test("every operation in the route table is in the document, with its summary and access rule", () => {
    for (const route of apiRoutes) {
      const { method, path } = splitRouteKey(routeKeyOf(route));
      const operation = paths[path]?.[method];
      expect(operation, routeKeyOf(route)).toBeDefined();
      expect(operation!.summary, routeKeyOf(route)).toBe(route.doc.summary);
      expect(operation!["x-permission"], routeKeyOf(route)).toBe(route.access);
    }
  });

  test("every handler a route file exports with a definition is documented; methods without one answer 405", async () => {
    const folders = routeFolders();
    expect(folders.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const folder of folders) {
      const mod = await loadRouteModule(folder);
      for (const method of httpMethods) {
        if (excluded(folder, method) || !definitionOf(mod[method])) continue;
        if (!paths[documentPath(folder)]?.[method.toLowerCase()]) missing.push(`${method} /api/${folder}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("every documented operation exists: its route file exports the method with that very definition", async () => {
    const absent: string[] = [];
    for (const [docPath, item] of Object.entries(paths)) {
      const folder = docPath.replace(/^\/api\//, "").replace(/\{([^}]+)\}/g, "[$1]");
      const mod = await loadRouteModule(folder).catch(() => ({}) as Record<string, unknown>);
      for (const method of Object.keys(item)) {
        const definition = definitionOf(mod[method.toUpperCase()]);
        const documented = apiRoutes.find((route) => routeKeyOf(route) === `${method.toUpperCase()} /api/${folder}`);
        if (!definition || definition !== documented) absent.push(`${method.toUpperCase()} ${docPath}`);
      }
    }
    expect(absent).toEqual([]);
  });
});
