import { describe, expect, test } from "vitest";
import { permissionPresets, type PermissionPreset } from "@/lib/auth/permissions";
import { routeAccess } from "@/lib/auth/route-access";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createApiKeyFor, createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { allRouteKeys, httpMethods, loadRoute, loadRouteModule, routeFolders } from "../../helpers/routes";

setupTestDatabase();
// Sandbox tools do real devnet transactions: give them one, so "allowed" means a real answer.
setupTestDevnet();

describe("the route table", () => {
  test("lists every exported handler under app/api, and nothing that does not exist", async () => {
    const exported: string[] = [];
    for (const folder of routeFolders()) {
      const mod = await loadRouteModule(folder);
      for (const method of httpMethods) if (typeof mod[method] === "function") exported.push(`${method} /api/${folder}`);
    }
    expect(exported.sort()).toEqual([...allRouteKeys].sort());
  });
});

const protectedRoutes = allRouteKeys.filter((key) => routeAccess[key] !== "public");
const presets = Object.keys(permissionPresets) as PermissionPreset[];

describe("each API key preset against each protected route", () => {
  let merchant: TestMerchant;
  const keys = {} as Record<PermissionPreset, string>;

  test.beforeAll?.(() => {});

  for (const key of protectedRoutes) {
    const access = routeAccess[key];
    test(`${key} (${access})`, async () => {
      if (!merchant) {
        merchant = await createMerchant();
        for (const preset of presets) keys[preset] = (await createApiKeyFor(merchant, { preset })).key;
      }
      const { handler, method, params, urlPath } = await loadRoute(key);
      // Without a credential: 401.
      const anonymous = await call(handler, method, urlPath, { params, body: method === "GET" ? undefined : {} });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("INVALID_TOKEN");

      for (const preset of presets) {
        const res = await call(handler, method, urlPath, { token: keys[preset], params, body: method === "GET" ? undefined : {} });
        const allowed =
          access === "authenticated" || (access !== "login" && (permissionPresets[preset] as readonly string[]).includes(access));
        if (allowed) expect(res.status, `${preset} should pass the permission check`).not.toBe(403);
        else {
          expect(res.status, `${preset} should be refused`).toBe(403);
          expect(res.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
        }
        expect(res.status, `${preset} must not crash the route`).toBeLessThan(500);
        expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
      }

      // A login token carries every permission.
      const loginRes = await call(handler, method, urlPath, { token: merchant.access, params, body: method === "GET" ? undefined : {} });
      expect(loginRes.status).not.toBe(403);
      expect(loginRes.status).not.toBe(401);
    });
  }
});
