import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { GET as openapiJson } from "@/app/api/openapi.json/route";
import { apiRoutes } from "@/lib/api-routes";
import { memberOnlyPermissions } from "@/lib/auth/roles";
import { routeKeyOf } from "@/lib/http/define-route";
import { allErrorCodes, errorCodes, statusOf } from "@/lib/http/error-codes";
import { maxBodyBytes } from "@/lib/http/read-body";
import { splitRouteKey } from "@/lib/openapi/document";
import { webhookEventTypes } from "@/lib/webhooks/schemas";
import { setupTestDatabase } from "../helpers/db";
import { documentedErrorCodes, documentedOperation, expectMatchesSchema, openApiDocument } from "../helpers/openapi";
import { call } from "../helpers/request";

setupTestDatabase();

const routeKeys = apiRoutes.map(routeKeyOf);
const accessOf = (key: string) => apiRoutes.find((route) => routeKeyOf(route) === key)!.access;

describe("the OpenAPI document", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(openApiDocument.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(openApiDocument) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  test("the validator used above does reject a broken document", async () => {
    const broken = structuredClone(openApiDocument);
    broken.paths["/api/payment-orders"].post.responses = { "201": { content: {} } };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  test("every schema in it compiles as JSON Schema 2020-12 (the 3.1 dialect)", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(openApiDocument, "doc");
    for (const name of Object.keys(openApiDocument.components.schemas)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.toThrow();
    }
    for (const [path, item] of Object.entries<any>(openApiDocument.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const pointer = `doc#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}`;
        if (operation.requestBody)
          expect(() => ajv.getSchema(`${pointer}/requestBody/content/application~1json/schema`), `${method} ${path} body`).not.toThrow();
        for (const status of Object.keys(operation.responses)) {
          if (!operation.responses[status].content) continue;
          expect(() => ajv.getSchema(`${pointer}/responses/${status}/content/application~1json/schema`), `${method} ${path} ${status}`).not.toThrow();
        }
      }
    }
  });

  test("declares both credentials as security schemes", () => {
    expect(openApiDocument.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
      apiKeyAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
  });

  test("each operation carries its route's access rule as x-permission and the matching security", () => {
    for (const key of routeKeys) {
      const operation = documentedOperation(key);
      const access = accessOf(key);
      expect(operation["x-permission"], key).toBe(access);
      // A login only: `login` and the member-only permissions (issue 28) refuse API keys.
      const loginOnly = access === "login" || (memberOnlyPermissions as readonly string[]).includes(access);
      const expected = access === "public" ? [] : loginOnly ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { apiKeyAuth: [] }];
      expect(operation.security, key).toEqual(expected);
    }
  });

  test("protected operations document 401, 403 (unless any credential will do) and 429", () => {
    for (const key of routeKeys) {
      const access: string = accessOf(key);
      if (access === "public") continue;
      expect(documentedErrorCodes(key, 401), key).toContain("INVALID_TOKEN");
      expect(documentedErrorCodes(key, 429), key).toContain("RATE_LIMITED");
      if (access !== "authenticated") expect(documentedErrorCodes(key, 403), key).toContain("INSUFFICIENT_PERMISSIONS");
      expect(documentedOperation(key).responses["429"].headers["Retry-After"], key).toBeDefined();
    }
  });

  test("operations with input document 400 VALIDATION_ERROR; with path parameters, 404 NOT_FOUND; and their domain codes", () => {
    for (const route of apiRoutes) {
      const key = routeKeyOf(route);
      const doc = route.doc;
      if (route.body || route.query) expect(documentedErrorCodes(key, 400), key).toContain("VALIDATION_ERROR");
      if (route.params) {
        expect(documentedErrorCodes(key, 404), key).toContain("NOT_FOUND");
        const names = [...splitRouteKey(key).path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const pathParams = documentedOperation(key)
          .parameters.filter((p: any) => p.in === "path")
          .map((p: any) => p.name);
        expect(pathParams.sort(), key).toEqual(names.sort());
      }
      for (const code of doc.errors ?? []) expect(documentedErrorCodes(key, statusOf(code)), `${key} ${code}`).toContain(code);
    }
    expect(documentedErrorCodes("POST /api/payment-orders", 400).sort()).toEqual(
      [
        "VALIDATION_ERROR",
        "INVALID_AMOUNT",
        "UNSUPPORTED_CURRENCY",
        "INVALID_BLOCKCHAIN",
        "WALLET_NOT_CONFIGURED",
        "DUPLICATE_NONCE",
        "INVALID_ORDER_INFO",
        "UNSUPPORTED_PRICE_CURRENCY",
      ].sort(),
    );
  });

  test("success shapes: envelope for objects, the bare page for lists, bare bodies for auth", () => {
    const schemaOf = (key: string, status: number) => documentedOperation(key).responses[String(status)].content["application/json"].schema;
    expect(schemaOf("POST /api/payment-orders", 201).properties.data).toEqual({ $ref: "#/components/schemas/Order" });
    expect(schemaOf("POST /api/payment-orders", 201).required).toEqual(["success", "data", "message", "timestamp"]);
    expect(Object.keys(schemaOf("GET /api/payment-orders", 200).properties).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(schemaOf("GET /api/payment-orders", 200).properties.results.items).toEqual({ $ref: "#/components/schemas/OrderListItem" });
    expect(schemaOf("POST /api/auth/login", 200)).toEqual({ $ref: "#/components/schemas/LoginResult" });
    expect(openApiDocument.components.schemas.ErrorCode.enum).toEqual(allErrorCodes);
  });

  test("every error code's description and example come from the one error-code table", () => {
    expect(documentedOperation("POST /api/payment-orders").responses["400"].description).toContain(errorCodes.DUPLICATE_NONCE.description);
    const examples = documentedOperation("POST /api/payment-orders").responses["400"].content["application/json"].examples;
    expect(examples.DUPLICATE_NONCE.value.error).toEqual({ code: "DUPLICATE_NONCE", ...errorCodes.DUPLICATE_NONCE.example });
    expect(openApiDocument.components.schemas.ErrorCode["x-status"].METHOD_NOT_ALLOWED).toBe(405);
  });

  test("request schemas state what the server enforces", () => {
    const body = documentedOperation("POST /api/payment-orders").requestBody;
    const fields = body.content["application/json"].schema.properties;
    // The amount is a plain decimal string (INVALID_AMOUNT otherwise) and the nonce an integer a JSON number holds exactly.
    expect(new RegExp(fields.amount.pattern).test("10.50")).toBe(true);
    for (const bad of ["-1", "1e3", " 1", "1.", "0x10"]) expect(new RegExp(fields.amount.pattern).test(bad), bad).toBe(false);
    expect(fields.nonce).toMatchObject({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    for (const url of ["webhook_url", "redirect_url"]) {
      const schema = JSON.stringify(fields[url]);
      expect(schema, url).toContain('"format":"uri"');
      expect(schema, url).toContain('"pattern":"^https?://"');
    }
    expect(JSON.stringify(documentedOperation("POST /api/webhook-endpoints").requestBody.content["application/json"].schema.properties.url)).toContain(
      '"pattern":"^https?://"',
    );
    // The 64 KiB cap on every body.
    for (const route of apiRoutes.filter((r) => r.body)) {
      expect(documentedOperation(routeKeyOf(route)).requestBody.description, routeKeyOf(route)).toContain(`${maxBodyBytes} bytes`);
    }
  });

  test("documents 404 for unknown paths and resources and 405 (with Allow) for methods a path does not have", () => {
    const { NotFound, MethodNotAllowed } = openApiDocument.components.responses;
    expect(NotFound.content["application/json"].example.error.code).toBe("NOT_FOUND");
    expect(MethodNotAllowed.content["application/json"].example.error.code).toBe("METHOD_NOT_ALLOWED");
    expect(MethodNotAllowed.headers.Allow).toEqual({ $ref: "#/components/headers/Allow" });
    expect(openApiDocument.info.description).toContain("405 `METHOD_NOT_ALLOWED`");
    expect(documentedErrorCodes("GET /api/payment-orders/[orderId]", 404)).toEqual(["NOT_FOUND"]);
  });

  test("lists every webhook event with its payload and both signature headers", () => {
    expect(Object.keys(openApiDocument.webhooks).sort()).toEqual([...webhookEventTypes].sort());
    for (const type of webhookEventTypes) {
      const post = openApiDocument.webhooks[type].post;
      const schema = post.requestBody.content["application/json"].schema;
      // Subscription events carry the subscription, payout events the batch, order events the order.
      if (type.startsWith("subscription.")) expect(schema.properties.event).toEqual({ const: type });
      else expect(schema.allOf[0]).toEqual({ $ref: `#/components/schemas/${type.startsWith("payout.") ? "PayoutWebhookEvent" : "WebhookEvent"}` });
      expect(post.parameters.map((p: any) => p.name).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp", "x-webhook-signature"]);
    }
    expect(openApiDocument.components.schemas.WebhookEvent.properties.data).toMatchObject({ $ref: "#/components/schemas/Order" });
    expect(openApiDocument.components.schemas.PayoutWebhookEvent.properties.data).toMatchObject({ $ref: "#/components/schemas/PayoutBatch" });
  });
});

describe("GET /api/openapi.json", () => {
  test("serves the document publicly, with this deployment as the server", async () => {
    const res = await call(openapiJson, "GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expectMatchesSchema("GET /api/openapi.json", 200, res.body);
    expect(res.body.paths).toEqual(openApiDocument.paths);
    expect(res.body.servers).toEqual([{ url: "http://localhost:3000", description: "This deployment" }]);
  });
});
