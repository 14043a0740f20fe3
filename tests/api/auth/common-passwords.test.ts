/** Registration refuses common, repeated and sequential passwords. */
import { describe, expect, test } from "vitest";
import { POST as register } from "@/app/api/auth/register/route";
import { setupTestDatabase } from "../../helpers/db";
import { uniqueName } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("common passwords", () => {
  test.each(["12345678", "password", "Password1", "qwerty123", "iloveyou", "aaaaaaaa", "password2024!", "abcdefgh", "87654321"])(
    "%s is refused",
    async (password) => {
      const username = uniqueName("pw");
      const res = await call(register, "POST", "/api/auth/register", { body: { username, email: `${username}@example.com`, password, shop_name: "Shop" } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.password[0]).toMatch(/common|repeated|sequence/);
    },
  );

  test("a less predictable one is accepted", async () => {
    const username = uniqueName("pw");
    const res = await call(register, "POST", "/api/auth/register", {
      body: { username, email: `${username}@example.com`, password: "paper-lantern-4217", shop_name: "Shop" },
    });
    expect(res.status).toBe(201);
  });
});
