import { describe, expect, test } from "vitest";
import { DELETE as revoke } from "@/app/api/api-keys/[id]/route";
import { POST as create } from "@/app/api/api-keys/route";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("POST /api/api-keys/ rejects bad input", () => {
  test.each([
    ["neither permissions nor preset", { name: "k" }, "permissions"],
    ["both permissions and preset", { name: "k", preset: "read_only", permissions: ["read"] }, "permissions"],
    ["an unknown preset", { name: "k", preset: "god_mode" }, "preset"],
    ["an unknown permission", { name: "k", permissions: ["read", "delete_everything"] }, "permissions.1"],
    ["an empty permission list", { name: "k", permissions: [] }, "permissions"],
    ["a missing name", { preset: "read_only" }, "name"],
    ["a blank name", { name: "   ", preset: "read_only" }, "name"],
    ["a malformed expiry", { name: "k", preset: "read_only", expires_at: "next tuesday" }, "expires_at"],
    ["an expiry in the past", { name: "k", preset: "read_only", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
  ])("%s → 400 VALIDATION_ERROR", async (_label, body, field) => {
    const merchant = await createMerchant();
    const res = await call(create, "POST", "/api/api-keys/", { token: merchant.access, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toHaveProperty([field]);
  });
});

describe("DELETE /api/api-keys/{id}/", () => {
  test("another merchant's key is 404 and stays usable", async () => {
    const owner = await createMerchant();
    const other = await createMerchant();
    const { id, key } = await createApiKeyFor(owner, { preset: "read_only" });
    const res = await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: other.access, params: { id: String(id) } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    const { GET: verify } = await import("@/app/api/auth/verify/route");
    expect((await call(verify, "GET", "/api/auth/verify/", { token: key })).status).toBe(200);
  });

  test.each(["abc", "1.5", "-1", "99999999999999"])("id %s is 404", async (id) => {
    const merchant = await createMerchant();
    const res = await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id } });
    expect(res.status).toBe(404);
  });
});
