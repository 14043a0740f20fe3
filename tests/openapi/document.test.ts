import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { GET as openapiJson } from "@/app/api/openapi.json/route";
import { routeAccess, type RouteKey } from "@/lib/auth/route-access";
import { errorStatus, type ErrorCode } from "@/lib/http/error-codes";
import { splitRouteKey } from "@/lib/openapi/document";
import { operations } from "@/lib/openapi/registry";
import { webhookEventTypes } from "@/lib/webhooks/schemas";
import { setupTestDatabase } from "../helpers/db";
import { documentedErrorCodes, documentedOperation, expectMatchesSchema, openApiDocument } from "../helpers/openapi";
import { call } from "../helpers/request";

setupTestDatabase();

const routeKeys = Object.keys(routeAccess) as RouteKey[];

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
        if (operation.requestBody) expect(() => ajv.getSchema(`${pointer}/requestBody/content/application~1json/schema`), `${method} ${path} body`).not.toThrow();
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
      const access = routeAccess[key];
      expect(operation["x-permission"], key).toBe(access);
      const expected = access === "public" ? [] : access === "login" ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { apiKeyAuth: [] }];
      expect(operation.security, key).toEqual(expected);
    }
  });

  test("protected operations document 401, 403 (unless any credential will do) and 429", () => {
    for (const key of routeKeys) {
      const access: string = routeAccess[key];
      if (access === "public") continue;
      expect(documentedErrorCodes(key, 401), key).toContain("INVALID_TOKEN");
      expect(documentedErrorCodes(key, 429), key).toContain("RATE_LIMITED");
      if (access !== "authenticated") expect(documentedErrorCodes(key, 403), key).toContain("INSUFFICIENT_PERMISSIONS");
      expect(documentedOperation(key).responses["429"].headers["Retry-After"], key).toBeDefined();
    }
  });

  test("operations with input document 400 VALIDATION_ERROR; with path parameters, 404 NOT_FOUND; and their domain codes", () => {
    for (const key of routeKeys) {
      const doc = operations[key];
      if (!doc) continue;
      if (doc.body || doc.query || doc.params) expect(documentedErrorCodes(key, 400), key).toContain("VALIDATION_ERROR");
      if (doc.params) {
        expect(documentedErrorCodes(key, 404), key).toContain("NOT_FOUND");
        const names = [...splitRouteKey(key).path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const pathParams = documentedOperation(key).parameters.filter((p: any) => p.in === "path").map((p: any) => p.name);
        expect(pathParams.sort(), key).toEqual(names.sort());
      }
      for (const code of doc.errors ?? []) expect(documentedErrorCodes(key, errorStatus[code as ErrorCode]), `${key} ${code}`).toContain(code);
    }
    expect(documentedErrorCodes("POST /api/payment-orders", 400).sort()).toEqual(
      ["VALIDATION_ERROR", "INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "WALLET_NOT_CONFIGURED", "DUPLICATE_NONCE", "INVALID_ORDER_INFO", "UNSUPPORTED_PRICE_CURRENCY"].sort(),
    );
  });

  test("success shapes: envelope for objects, the bare page for lists, bare bodies for auth", () => {
    const schemaOf = (key: string, status: number) => documentedOperation(key).responses[String(status)].content["application/json"].schema;
    expect(schemaOf("POST /api/payment-orders", 201).properties.data).toEqual({ $ref: "#/components/schemas/Order" });
    expect(schemaOf("POST /api/payment-orders", 201).required).toEqual(["success", "data", "message", "timestamp"]);
    expect(Object.keys(schemaOf("GET /api/payment-orders", 200).properties).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(schemaOf("GET /api/payment-orders", 200).properties.results.items).toEqual({ $ref: "#/components/schemas/OrderListItem" });
    expect(schemaOf("POST /api/auth/login", 200)).toEqual({ $ref: "#/components/schemas/LoginResult" });
    expect(Object.keys(openApiDocument.components.schemas.ErrorCode.enum).length).toBe(Object.keys(errorStatus).length);
  });

  test("lists every webhook event with its payload and both signature headers", () => {
    expect(Object.keys(openApiDocument.webhooks).sort()).toEqual([...webhookEventTypes].sort());
    for (const type of webhookEventTypes) {
      const post = openApiDocument.webhooks[type].post;
      expect(post.requestBody.content["application/json"].schema.allOf[0]).toEqual({ $ref: "#/components/schemas/WebhookEvent" });
      expect(post.parameters.map((p: any) => p.name).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp", "x-webhook-signature"]);
    }
    expect(openApiDocument.components.schemas.WebhookEvent.properties.data).toMatchObject({ $ref: "#/components/schemas/Order" });
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
