import { afterEach, describe, expect, test, vi } from "vitest";
import { httpMethods, routeKeyOf } from "@/lib/http/define-route";
import { setupTestDatabase } from "../../helpers/db";
import { call, type Handler } from "../../helpers/request";
import { definitionOf, loadRouteModule, routeFolders } from "../../helpers/routes";

setupTestDatabase();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const envelope = (code: string) => ({ success: false, error: { code, message: expect.any(String) }, timestamp: expect.any(String) });

/** The methods a route file really has: the handlers that carry a definition, or any handler of the plain routes. */
async function methodsOf(folder: string) {
  const mod = await loadRouteModule(folder);
  const defined = httpMethods.filter((method) => definitionOf(mod[method]) !== undefined);
  return { mod, defined, missing: httpMethods.filter((method) => !defined.includes(method)) };
}

describe("a method a path does not have", () => {
  test("DELETE /api/payment-orders/ is 405 METHOD_NOT_ALLOWED in the error envelope, with Allow and a request id", async () => {
    const { mod } = await methodsOf("payment-orders");
    const res = await call(mod.DELETE as Handler, "DELETE", "/api/payment-orders/");
    expect(res.status).toBe(405);
    expect(res.body).toEqual(envelope("METHOD_NOT_ALLOWED"));
    expect(res.body.error.message).toBe("DELETE is not allowed here; allowed: GET, POST, HEAD, OPTIONS.");
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every route file answers 405 with its own Allow for every method it lacks, and OPTIONS with 204", async () => {
    let checked = 0;
    for (const folder of routeFolders()) {
      if (folder === "sandbox/inbox/[token]") continue; // records every method (the capture URL)
      const { mod, defined, missing } = await methodsOf(folder);
      expect(defined.length, folder).toBeGreaterThan(0);
      const allow = [...defined, ...(defined.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
      for (const method of missing) {
        const res = await call(mod[method] as Handler, method, `/api/${folder}/`, { params: {} });
        expect(res.status, `${method} /api/${folder}`).toBe(405);
        expect(res.body, `${method} /api/${folder}`).toEqual(envelope("METHOD_NOT_ALLOWED"));
        expect(res.headers.get("allow"), `${method} /api/${folder}`).toBe(allow);
        checked += 1;
      }
      const options = await call(mod.OPTIONS as Handler, "OPTIONS", `/api/${folder}/`);
      expect(options.status, `OPTIONS /api/${folder}`).toBe(204);
      expect(options.headers.get("allow"), `OPTIONS /api/${folder}`).toBe(allow);
      // The methods it has are never 405.
      for (const method of defined) expect(definitionOf(mod[method]) && routeKeyOf(definitionOf(mod[method])!), folder).toBe(`${method} /api/${folder}`);
    }
    expect(checked).toBeGreaterThan(100);
  });

  test("a file of sandbox tools does not exist in live mode: 404 for every method, not 405", async () => {
    vi.stubEnv("GATEWAY_MODE", "live");
    vi.resetModules();
    const mine = await import("@/app/api/sandbox/mine/route");
    for (const [method, handler] of [
      ["GET", mine.GET],
      ["DELETE", mine.DELETE],
      ["POST", mine.POST],
    ] as const) {
      const res = await call(handler, method, "/api/sandbox/mine/", { body: method === "POST" ? { blocks: 1 } : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body, method).toEqual(envelope("NOT_FOUND"));
    }
    // A file with operations of both kinds still answers 405 in live mode.
    const orders = await import("@/app/api/payment-orders/route");
    expect((await call(orders.PUT, "PUT", "/api/payment-orders/")).status).toBe(405);
  });

  test("the plain routes answer 405 too: the payment page's QR code (the CSV export: tests/dashboard/orders-export.test.ts)", async () => {
    const qr = await import("@/app/pay/[orderId]/qr.svg/route");
    const res = await call(qr.DELETE, "DELETE", "/pay/ORD-x/qr.svg", { params: { orderId: "ORD-x" } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual(envelope("METHOD_NOT_ALLOWED"));
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
