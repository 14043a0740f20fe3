import { describe, expect, test } from "vitest";
import { routesOutsideTheTable } from "@/lib/api-routes";
import { permissionPresets, type PermissionPreset } from "@/lib/auth/permissions";
import { allRoles, roleAllows, type MemberPermission, type Role } from "@/lib/auth/roles";
import { routeKeyOf } from "@/lib/http/define-route";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createApiKeyFor, createMerchant, type TestMerchant } from "../../helpers/factories";
import { addMember, invitationTokenFromOutbox, type TestMember } from "../../helpers/members";
import { call } from "../../helpers/request";
import { accessOf, allRouteKeys, definitionOf, httpMethods, loadRoute, loadRouteModule, routeFolders } from "../../helpers/routes";

const database = setupTestDatabase();
// Sandbox tools do real devnet transactions: give them one, so "allowed" means a real answer.
setupTestDevnet();

/** "sandbox/inbox/[token] GET,PUT" → the methods a folder exports with another method's definition, on purpose. */
function sharedHandlerMethods(folder: string): string[] {
  const entry = Object.keys(routesOutsideTheTable).find((key) => key.split(" ")[0] === folder && key.includes(" "));
  return entry ? entry.split(" ")[1]!.split(",") : [];
}

describe("the route table", () => {
  test("every route file exports every method; the ones with a definition are exactly the table", async () => {
    const defined: string[] = [];
    for (const folder of routeFolders()) {
      const mod = await loadRouteModule(folder);
      for (const method of httpMethods) {
        expect(typeof mod[method], `${method} /api/${folder}`).toBe("function");
        const definition = definitionOf(mod[method]);
        if (!definition || sharedHandlerMethods(folder).includes(method)) continue;
        // A handler sits under its own method and path.
        expect(routeKeyOf(definition), `${method} /api/${folder}`).toBe(`${method} /api/${folder}`);
        defined.push(routeKeyOf(definition));
      }
      expect(typeof mod.OPTIONS === "function" || sharedHandlerMethods(folder).length > 0, `OPTIONS /api/${folder}`).toBe(true);
    }
    expect(defined.sort()).toEqual([...allRouteKeys].sort());
  });
});

const protectedRoutes = allRouteKeys.filter((key) => accessOf(key) !== "public");
const presets = Object.keys(permissionPresets) as PermissionPreset[];

describe("each API key preset against each protected route", () => {
  let merchant: TestMerchant;
  const keys = {} as Record<PermissionPreset, string>;

  test.beforeAll?.(() => {});

  for (const key of protectedRoutes) {
    const access = accessOf(key);
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
        const allowed = access === "authenticated" || (access !== "login" && (permissionPresets[preset] as readonly string[]).includes(access));
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

describe("each member role against each protected route (issue 28)", () => {
  let owner: TestMerchant;
  const members = {} as Record<Role, TestMember | TestMerchant>;

  for (const key of protectedRoutes) {
    const access = accessOf(key);
    test(`${key} (${access})`, async () => {
      if (!owner) {
        // A fresh account: the per-account hourly limit is not shared with the API key walk.
        owner = await createMerchant();
        members.owner = owner;
        for (const role of allRoles.filter((r) => r !== "owner"))
          members[role] = await addMember(owner, role, (email) => invitationTokenFromOutbox(database.db, email));
      }
      const { handler, method, params, urlPath } = await loadRoute(key);
      for (const role of allRoles) {
        const res = await call(handler, method, urlPath, { token: members[role].access, params, body: method === "GET" ? undefined : {} });
        const allowed = access === "authenticated" || access === "login" || roleAllows(role, access as MemberPermission);
        if (allowed) {
          expect(res.status, `${role} should pass the role check`).not.toBe(403);
          expect(res.status, `${role} should be signed in`).not.toBe(401);
        } else {
          expect(res.status, `${role} should be refused`).toBe(403);
          expect(res.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
        }
        expect(res.status, `${role} must not crash the route`).toBeLessThan(500);
      }
    });
  }
});
