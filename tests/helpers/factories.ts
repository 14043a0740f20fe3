import { randomBytes } from "node:crypto";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { call } from "./request";

let counter = 0;

export function uniqueName(prefix = "merchant"): string {
  counter += 1;
  return `${prefix}${counter}_${randomBytes(3).toString("hex")}`;
}

export interface TestMerchant {
  id: number;
  username: string;
  email: string;
  password: string;
  access: string;
  refresh: string;
  webhookSecret: string;
}

/**
 * Registers and logs in a new merchant through the real routes. `ip`: the address it logs in from (many
 * merchants made at once from one address meet the per-address sign-in throttle, which counts attempts
 * while they are checked).
 */
export async function createMerchant(
  overrides: Partial<{ username: string; email: string; password: string; shop_name: string; ip: string }> = {},
): Promise<TestMerchant> {
  const username = overrides.username ?? uniqueName();
  const input = {
    username,
    email: overrides.email ?? `${username}@example.com`,
    password: overrides.password ?? "correct horse battery",
    shop_name: overrides.shop_name ?? `Shop of ${username}`,
  };
  const registered = await call(register, "POST", "/api/auth/register", { body: input, ip: `198.51.100.${(counter % 250) + 1}` });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const loggedIn = await call(login, "POST", "/api/auth/login", { body: { username, password: input.password }, ...(overrides.ip && { ip: overrides.ip }) });
  if (loggedIn.status !== 200) throw new Error(`login failed: ${JSON.stringify(loggedIn.body)}`);
  return {
    id: registered.body.user.id,
    username,
    email: input.email,
    password: input.password,
    access: loggedIn.body.access,
    refresh: loggedIn.body.refresh,
    webhookSecret: registered.body.webhook_secret,
  };
}

/** Creates an API key through the real route with a login token. */
export async function createApiKeyFor(
  merchant: Pick<TestMerchant, "access">,
  body: { name?: string; preset?: string; permissions?: string[]; expires_at?: string | null } = { preset: "full_access" },
): Promise<{ key: string; id: number; body: any }> {
  const { POST } = await import("@/app/api/api-keys/route");
  const res = await call(POST, "POST", "/api/api-keys/", { token: merchant.access, body: { name: "test key", ...body } });
  if (res.status !== 201) throw new Error(`api key create failed: ${JSON.stringify(res.body)}`);
  return { key: res.body.data.key, id: res.body.data.id, body: res.body };
}

/** A fresh random EVM address (checksummed), e.g. for a merchant wallet. */
export function randomAddress(): string {
  return privateKeyToAddress(generatePrivateKey());
}

/** Configures a merchant wallet through the real route (default: blockchain 2 = base, a fresh address). */
export async function createWallet(
  merchant: Pick<TestMerchant, "access">,
  body: { blockchain?: number; wallet_address?: string; confirmation_threshold?: number; is_active?: boolean } = {},
): Promise<any> {
  const { POST } = await import("@/app/api/merchant-wallets/route");
  const res = await call(POST, "POST", "/api/merchant-wallets/", {
    token: merchant.access,
    body: { blockchain: 2, wallet_address: randomAddress(), ...body },
  });
  if (res.status !== 201) throw new Error(`wallet create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

let nonceCounter = 0;

/** Creates a payment order through the real route (default: 10.5 USDC on base, a fresh nonce). */
export async function createOrder(merchant: Pick<TestMerchant, "access">, body: Record<string, unknown> = {}): Promise<any> {
  const { POST } = await import("@/app/api/payment-orders/route");
  nonceCounter += 1;
  const res = await call(POST, "POST", "/api/payment-orders/", {
    token: merchant.access,
    body: { amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce: Date.now() * 1000 + nonceCounter, ...body },
  });
  if (res.status !== 201) throw new Error(`order create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
