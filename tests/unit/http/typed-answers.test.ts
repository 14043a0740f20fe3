/**
 * A route handler answers what its reference documents (issue 51 item 4): withApi holds the handler's
 * return type to the route definition's response schema. The refusals below are compile errors
 * (`npm run typecheck` fails if one compiles); at run time the routes answer what was written.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { created, ok } from "@/lib/http/envelope";
import { page } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";

const thing = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable() });
const getThing = defineRoute({
  method: "GET",
  path: "/api/things/[id]",
  access: "public",
  doc: { summary: "A thing", tags: ["Meta"], response: okAnswer(thing) },
});
const makeThing = defineRoute({
  method: "POST",
  path: "/api/things",
  access: "public",
  doc: { summary: "Make a thing", tags: ["Meta"], response: createdAnswer(thing) },
});
const listThings = defineRoute({
  method: "GET",
  path: "/api/things",
  access: "public",
  doc: { summary: "Things", tags: ["Meta"], response: pageAnswer(thing) },
});
const query = { page: 1, page_size: 20 };

describe("a handler's answer is checked against its route's response schema at compile time", () => {
  test("the documented body and status compile and are answered", async () => {
    const route = withApi(getThing, async () => ok({ id: 1, name: "a", note: null }));
    const response = await route(new Request("http://localhost/api/things/1"));
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({ id: 1, name: "a", note: null });

    withApi(makeThing, async () => created({ id: 1, name: "a", note: "n" }));
    withApi(listThings, async ({ url }) => page(url, query, 1, [{ id: 1, name: "a", note: null }]));
  });

  test("a wrong field type, a missing field, another status or another shape does not compile", () => {
    // @ts-expect-error id is a number in the schema
    withApi(getThing, async () => ok({ id: "1", name: "a", note: null }));
    // @ts-expect-error note is required (nullable, not optional)
    withApi(getThing, async () => ok({ id: 1, name: "a" }));
    // @ts-expect-error the reference says 201 Created
    withApi(makeThing, async () => ok({ id: 1, name: "a", note: null }));
    // @ts-expect-error a list answers the page shape, not an envelope
    withApi(listThings, async () => ok([{ id: 1, name: "a", note: null }]));
    // @ts-expect-error a page of something else
    withApi(listThings, async ({ url }) => page(url, query, 1, [{ id: 1 }]));
  });
});
