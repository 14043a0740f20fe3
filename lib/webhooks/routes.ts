import { z } from "zod";
import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { idParams } from "@/lib/http/schemas";
import {
  createEndpointBody,
  deliveryJson,
  endpointJson,
  endpointWithSecretJson,
  eventJson,
  inboxCaptureJson,
  inboxMessageJson,
  inboxParams,
  listDeliveriesQuery,
  listEventsQuery,
  rotatedEndpointJson,
  testEndpointBody,
  testWebhookJson,
  updateEndpointBody,
} from "./schemas";

/** Webhook endpoints, their deliveries, the event history and the sandbox inbox. */
export const webhookRoutes = {
  listEndpoints: defineRoute({
    method: "GET",
    path: "/api/webhook-endpoints",
    access: "manage_webhooks",
    query: pageQuery,
    doc: { summary: "List webhook endpoints", description: "Newest first, without their secrets.", tags: ["Webhooks"], response: pageAnswer(endpointJson) },
  }),
  createEndpoint: defineRoute({
    method: "POST",
    path: "/api/webhook-endpoints",
    access: "manage_webhooks",
    body: createEndpointBody,
    doc: {
      summary: "Add a webhook endpoint",
      description:
        "The signing `secret` is in this response (and on rotation) only. Live mode takes https URLs that resolve to public addresses; the sandbox also takes http and loopback. With two-factor authentication enabled, also send `reauth` { code } (missing or wrong: 400 VALIDATION_ERROR on reauth.code).",
      tags: ["Webhooks"],
      response: createdAnswer(endpointWithSecretJson, "Webhook endpoint created. Store the secret now."),
    },
  }),
  getEndpoint: defineRoute({
    method: "GET",
    path: "/api/webhook-endpoints/[id]",
    access: "manage_webhooks",
    params: idParams,
    doc: { summary: "Get a webhook endpoint", tags: ["Webhooks"], response: okAnswer(endpointJson) },
  }),
  updateEndpoint: defineRoute({
    method: "PUT",
    path: "/api/webhook-endpoints/[id]",
    access: "manage_webhooks",
    params: idParams,
    body: updateEndpointBody,
    doc: {
      summary: "Update a webhook endpoint",
      description: "Any subset of url, events, description, is_active.",
      tags: ["Webhooks"],
      response: okAnswer(endpointJson, "Webhook endpoint updated."),
    },
  }),
  deleteEndpoint: defineRoute({
    method: "DELETE",
    path: "/api/webhook-endpoints/[id]",
    access: "manage_webhooks",
    params: idParams,
    doc: {
      summary: "Delete a webhook endpoint",
      description: "Removes the endpoint and its delivery log.",
      tags: ["Webhooks"],
      response: okAnswer(endpointJson, "Webhook endpoint deleted."),
    },
  }),
  rotateEndpointSecret: defineRoute({
    method: "POST",
    path: "/api/webhook-endpoints/[id]/rotate-secret",
    access: "manage_webhooks",
    params: idParams,
    doc: {
      summary: "Rotate an endpoint's secret",
      description: "Deliveries carry a second `webhook-signature` with the old secret for 24 hours, so receivers can roll over.",
      tags: ["Webhooks"],
      response: okAnswer(rotatedEndpointJson, "Secret rotated. Store the new secret now."),
    },
  }),
  testEndpoint: defineRoute({
    method: "POST",
    path: "/api/webhook-endpoints/[id]/test",
    access: "manage_webhooks",
    params: idParams,
    body: testEndpointBody,
    doc: {
      summary: "Send a test event",
      description: "Sends a signed sample of the event to the endpoint now (whatever its subscriptions) and returns the attempt. Not retried.",
      tags: ["Webhooks"],
      response: okAnswer(testWebhookJson, "Test event delivered."),
    },
  }),
  listDeliveries: defineRoute({
    method: "GET",
    path: "/api/webhook-endpoints/[id]/deliveries",
    access: "manage_webhooks",
    params: idParams,
    query: listDeliveriesQuery,
    doc: {
      summary: "List an endpoint's deliveries",
      description: "Newest first, each with its attempts.",
      tags: ["Webhooks"],
      response: pageAnswer(deliveryJson),
    },
  }),
  redeliver: defineRoute({
    method: "POST",
    path: "/api/webhook-deliveries/[id]/redeliver",
    access: "manage_webhooks",
    params: idParams,
    doc: {
      summary: "Redeliver a webhook",
      description: "Sends the same body again with the same `webhook-id` and a fresh retry schedule.",
      tags: ["Webhooks"],
      response: okAnswer(deliveryJson, "Redelivery scheduled."),
      errors: ["CONFLICT"],
    },
  }),
  listEvents: defineRoute({
    method: "GET",
    path: "/api/events",
    access: "read",
    query: listEventsQuery,
    doc: {
      summary: "List order events",
      description: "Everything webhooks carried (or would have), newest first; filter by event type or order.",
      tags: ["Webhooks"],
      response: pageAnswer(eventJson),
    },
  }),
  listInbox: defineRoute({
    method: "GET",
    path: "/api/sandbox/inbox",
    access: "read",
    query: pageQuery,
    sandboxOnly: true,
    doc: {
      summary: "Read the webhook inbox",
      description:
        "What the merchant's capture URL (`inbox_url`) received, newest first, with each message's signature check. Point an endpoint or an order's webhook_url at `inbox_url` to try webhooks without a server.",
      tags: ["Sandbox"],
      response: pageAnswer(inboxMessageJson, z.object({ inbox_url: z.string().nullable().describe("The merchant's capture URL") })),
    },
  }),
  /**
   * The capture URL is a webhook receiver: its unguessable token is the credential, so it is a
   * plainRoute (no authentication or rate limit), not a withApi route.
   */
  captureInbox: defineRoute({
    method: "POST",
    path: "/api/sandbox/inbox/[token]",
    access: "public",
    params: inboxParams,
    sandboxOnly: true,
    doc: {
      summary: "Capture a webhook (inbox URL)",
      description:
        "The merchant's sandbox capture URL: records any request (GET, PUT, PATCH and DELETE are recorded too) and checks its webhook signatures. The unguessable token is the credential. 404 in live mode or for an unknown token.",
      tags: ["Sandbox"],
      response: okAnswer(inboxCaptureJson, "Captured."),
    },
  }),
};
