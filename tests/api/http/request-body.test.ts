import { describe, expect, test } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

const limit = 64 * 1024;

const validationError = (details: Record<string, unknown>) => ({
  success: false,
  error: { code: "VALIDATION_ERROR", message: expect.any(String), details },
  timestamp: expect.any(String),
});
const bodyError = validationError({ non_field_errors: [expect.any(String)] });
const tooLarge = validationError({ non_field_errors: [expect.stringContaining("65536 bytes")] });

/** A login body for `m` padded with an ignored field to exactly `bytes` bytes of JSON. */
function paddedLogin(m: Pick<TestMerchant, "username" | "password">, bytes: number): string {
  const empty = JSON.stringify({ username: m.username, password: m.password, pad: "" });
  const text = JSON.stringify({ username: m.username, password: m.password, pad: "x".repeat(bytes - empty.length) });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** Calls the handler with a streamed body (no Content-Length) and reports how much of the stream was read. */
async function postStream(handler: (request: Request) => Promise<Response>, chunk: Uint8Array, maxChunks: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === maxChunks) return controller.close();
      pulled += 1;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request("http://localhost:3000/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-gateway-peer-address": "198.18.0.9", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request);
  return { status: response.status, body: await response.json(), headers: response.headers, bytesRead: pulled * chunk.byteLength, cancelled };
}

describe("request bodies (through POST /api/auth/login)", () => {
  test.each([
    ["malformed JSON", '{"username": "a", "password": '],
    ["a trailing comma", '{"username": "a", "password": "b",}'],
    ["a JSON array", '[{"username": "a", "password": "b"}]'],
    ["an empty JSON array", "[]"],
    ["a JSON string", '"username"'],
    ["a JSON number", "42"],
    ["JSON true", "true"],
    ["JSON null", "null"],
    ["plain text", "username=a&password=b"],
  ])("%s is 400 VALIDATION_ERROR with details", async (_, rawBody) => {
    const res = await call(login, "POST", "/api/auth/login", { rawBody, ip: "198.18.0.1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bodyError);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("an empty body is an empty object: every required field is reported", async () => {
    const res = await call(login, "POST", "/api/auth/login", { rawBody: "", ip: "198.18.0.1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError({ username: ["This field is required."], password: ["This field is required."] }));
  });

  test("fields of the wrong type are reported per field", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { username: 12, password: ["x"] }, ip: "198.18.0.1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError({ username: [expect.any(String)], password: [expect.any(String)] }));
  });

  test("a body of exactly 64 KiB is accepted", async () => {
    const m = await createMerchant();
    const res = await call(login, "POST", "/api/auth/login", { rawBody: paddedLogin(m, limit), ip: "198.18.0.2" });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(m.id);
  });

  test("a body one byte over 64 KiB is 400, with a correct Content-Length", async () => {
    const m = await createMerchant();
    const rawBody = paddedLogin(m, limit + 1);
    const res = await call(login, "POST", "/api/auth/login", { rawBody, headers: { "content-length": String(limit + 1) }, ip: "198.18.0.3" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
  });

  test("a body one byte over 64 KiB is 400 without a Content-Length too", async () => {
    const m = await createMerchant();
    const res = await call(login, "POST", "/api/auth/login", { rawBody: paddedLogin(m, limit + 1), ip: "198.18.0.4" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
  });

  test("a Content-Length that understates the body does not get it past the limit", async () => {
    const m = await createMerchant();
    const res = await call(login, "POST", "/api/auth/login", { rawBody: paddedLogin(m, limit + 100), headers: { "content-length": "100" }, ip: "198.18.0.5" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
  });

  test("the limit counts bytes, not characters", async () => {
    // 40,000 two-byte characters: 80,000 bytes.
    const rawBody = JSON.stringify({ username: "é".repeat(40_000), password: "x" });
    expect(rawBody.length).toBeLessThan(limit);
    const res = await call(login, "POST", "/api/auth/login", { rawBody, ip: "198.18.0.6" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
  });

  test("an endless streamed body is cut off soon after 64 KiB, not read to the end", async () => {
    const chunk = new Uint8Array(16 * 1024).fill(0x78);
    const res = await postStream(login, chunk, 640); // 10 MiB on offer
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
    expect(res.bytesRead).toBeLessThanOrEqual(limit + 3 * chunk.byteLength);
    expect(res.cancelled).toBe(true);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a declared Content-Length over 64 KiB is refused before the body is read", async () => {
    const chunk = new Uint8Array(16 * 1024).fill(0x78);
    const res = await postStream(login, chunk, 64, { "content-length": String(64 * chunk.byteLength) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLarge);
    // A stream may pull one chunk ahead on its own; the handler read none of it.
    expect(res.bytesRead).toBeLessThanOrEqual(chunk.byteLength);
  });

  test("a small streamed body without Content-Length is read normally", async () => {
    const m = await createMerchant();
    const res = await postStream(login, new TextEncoder().encode(JSON.stringify({ username: m.username, password: m.password })), 1);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(m.id);
  });

  test("register applies the same rules", async () => {
    const array = await call(register, "POST", "/api/auth/register", { rawBody: "[]", ip: "198.18.0.7" });
    expect(array.status).toBe(400);
    expect(array.body).toEqual(bodyError);
    const big = await call(register, "POST", "/api/auth/register", {
      rawBody: JSON.stringify({ username: "big", email: "big@example.com", password: "x".repeat(limit), shop_name: "s" }),
      ip: "198.18.0.7",
    });
    expect(big.status).toBe(400);
    expect(big.body).toEqual(tooLarge);
  });
});
