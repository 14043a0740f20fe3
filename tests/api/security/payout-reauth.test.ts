/** Issue 24 item 7: a payout address changes only with a fresh proof (the password), on every path. */
import { describe, expect, test } from "vitest";
import { signInAs } from "../../dashboard/session";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, randomAddress } from "../../helpers/factories";
import { openApiDocument as doc } from "../../helpers/openapi";
import { call } from "../../helpers/request";

const { PUT } = await import("@/app/api/merchant-wallets/[id]/route");
const { GET: listWallets } = await import("@/app/api/merchant-wallets/route");
const { updateWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");

setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const put = (token: string, id: number, body: unknown, ip?: string) =>
  call(PUT, "PUT", `/api/merchant-wallets/${id}/`, { token, params: { id: String(id) }, body, ip });

describe("PUT /api/merchant-wallets/{id}/ with an access token", () => {
  test("a new wallet_address without reauth, or with a wrong password, is 400 on reauth.password and changes nothing", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 2 });
    const missing = await put(m.access, wallet.id, { wallet_address: randomAddress() });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { "reauth.password": [expect.any(String)] } });
    const wrong = await put(m.access, wallet.id, { wallet_address: randomAddress(), reauth: { password: "not the password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details["reauth.password"]).toEqual(["The password is not correct."]);
    const list = await call(listWallets, "GET", "/api/merchant-wallets/", { token: m.access });
    expect(list.body.results[0].wallet_address).toBe(wallet.wallet_address);
  });

  test("with the current password the address changes; threshold and active flag need no proof", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 2 });
    const address = randomAddress();
    const changed = await put(m.access, wallet.id, { wallet_address: address, reauth: { password: m.password } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.wallet_address).toBe(address);
    const threshold = await put(m.access, wallet.id, { confirmation_threshold: 4, is_active: false });
    expect(threshold.status).toBe(200);
  });

  test("guessing the password through a stolen token runs into the login throttle (429)", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await put(m.access, wallet.id, { wallet_address: randomAddress(), reauth: { password: `guess-${i}` } }, "198.51.100.77")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right password waits now, from that address.
    expect((await put(m.access, wallet.id, { wallet_address: randomAddress(), reauth: { password: m.password } }, "198.51.100.77")).status).toBe(429);
  });
});

describe("the dashboard's wallet form goes through the same rule", () => {
  test("no password: refused on the password field; with it: changed", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 3 });
    signInAs(m);
    const refused = await updateWalletAction(form({ id: String(wallet.id), wallet_address: randomAddress() }));
    expect(refused).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { password: [expect.any(String)] } } });
    const address = randomAddress();
    const done = await updateWalletAction(form({ id: String(wallet.id), wallet_address: address, password: m.password }));
    expect(done).toMatchObject({ ok: true, data: { wallet_address: address } });
  });
});

describe("OpenAPI", () => {
  test("documents reauth on PUT /api/merchant-wallets/{id}/", () => {
    const body = doc.paths["/api/merchant-wallets/{id}"].put.requestBody.content["application/json"].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split("/").at(-1)] : body;
    expect(schema.properties.reauth.properties.password.type).toBe("string");
    expect(schema.properties.reauth.description).toMatch(/password/);
  });
});
