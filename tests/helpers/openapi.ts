/** Checks real responses against the OpenAPI document the app serves (lib/openapi/document.ts). */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { buildOpenApiDocument, splitRouteKey } from "@/lib/openapi/document";

type Json = Record<string, any>;

export const openApiDocument = buildOpenApiDocument() as Json;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// Refs inside the document ("#/components/schemas/Order") resolve against it.
ajv.addSchema(openApiDocument, "openapi");

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** The documented operation of a route key ("POST /api/payment-orders"); fails the test when there is none. */
export function documentedOperation(routeKey: string): Json {
  const { method, path } = splitRouteKey(routeKey);
  const operation = openApiDocument.paths?.[path]?.[method];
  if (!operation) throw new Error(`${routeKey} has no operation in the OpenAPI document`);
  return operation;
}

/** Every (route key, status) pair checked so far in this test file. */
export const checkedResponses = new Set<string>();

/**
 * Asserts that `body` is what the document says `routeKey` answers with `status`: the status must
 * be documented for the operation and the body must validate against its schema (JSON Schema 2020-12,
 * formats included; response objects allow no undocumented fields).
 */
export function expectMatchesSchema(routeKey: string, status: number, body: unknown): void {
  const operation = documentedOperation(routeKey);
  const response = operation.responses?.[String(status)];
  expect(response, `${routeKey} does not document status ${status} (documented: ${Object.keys(operation.responses ?? {}).join(", ")})`).toBeDefined();
  const { method, path } = splitRouteKey(routeKey);
  const key = `${routeKey} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#/${pointer("paths", path, method, "responses", String(status), "content", "application/json", "schema")}` });
    validators.set(key, validate);
  }
  const valid = validate(body);
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`).join("\n");
  expect(valid, `${key} body does not match the documented schema:\n${problems}\nbody: ${JSON.stringify(body, null, 2).slice(0, 2000)}`).toBe(true);
  checkedResponses.add(key);
}

/** The error codes the document lists for `routeKey` at `status`. */
export function documentedErrorCodes(routeKey: string, status: number): string[] {
  const schema = documentedOperation(routeKey).responses?.[String(status)]?.content?.["application/json"]?.schema;
  return [...(schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [])];
}
