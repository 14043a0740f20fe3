"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { rowId } from "@/lib/http/schemas";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { createEndpoint } from "@/lib/webhooks/create-endpoint";
import { deleteEndpoint } from "@/lib/webhooks/delete-endpoint";
import { getEndpointOrThrow } from "@/lib/webhooks/get-endpoint-or-throw";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { rotateEndpointSecret } from "@/lib/webhooks/rotate-endpoint-secret";
import { createEndpointBody, testEndpointBody, updateEndpointBody } from "@/lib/webhooks/schemas";
import { sendTestWebhook } from "@/lib/webhooks/send-test-webhook";
import { serializeEndpoint } from "@/lib/webhooks/serialize";
import { updateEndpoint } from "@/lib/webhooks/update-endpoint";

const idInput = z.object({ id: rowId });

/** Checkboxes arrive as one string or several; the API schema wants a list (and a boolean for is_active). */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const events = f.events === undefined ? [] : Array.isArray(f.events) ? f.events : [f.events];
  return { ...f, events, description: f.description ?? null, is_active: f.is_active === undefined ? undefined : f.is_active === "on" };
};

/** Same use-case as POST /api/webhook-endpoints/; the form's `code` field is the fresh second factor (when 2FA is on). */
export const createEndpointAction = authedAction(
  z.preprocess((o) => withCode(fromForm(o)), createEndpointBody),
  async (input, { db, merchantId, userId }) => serializeEndpoint(await createEndpoint(db, merchantId, input, new Date(), { codeField: "code", userId })),
  { permission: "manage_webhooks" },
);

/** A form's `code` field → the use-case's `reauth.code`. */
function withCode(f: Record<string, unknown>) {
  const { code, ...rest } = f;
  return typeof code === "string" && code.trim() !== "" ? { ...rest, reauth: { code } } : rest;
}

/** Same use-case as PUT /api/webhook-endpoints/{id}/; the edit form always sends the active flag. */
export const updateEndpointAction = authedAction(
  z.preprocess((o) => ({ ...fromForm(o), is_active: (o as Record<string, unknown>).is_active === "on" }), idInput.and(updateEndpointBody)),
  async ({ id, ...changes }, { db, merchantId }) => serializeEndpoint(await updateEndpoint(db, merchantId, id, changes)),
  { permission: "manage_webhooks" },
);

/** Same use-case as DELETE /api/webhook-endpoints/{id}/. */
export const deleteEndpointAction = authedAction(idInput, async ({ id }, { db, merchantId }) => serializeEndpoint(await deleteEndpoint(db, merchantId, id)), {
  permission: "manage_webhooks",
});

/** The endpoint's signing secret, fetched only when the merchant asks to see it. */
export const revealSecretAction = authedAction(
  idInput,
  async ({ id }, { db, merchantId }) => ({ secret: (await getEndpointOrThrow(db, merchantId, id)).secret }),
  { permission: "manage_webhooks" },
);

/** Same use-case as POST /api/webhook-endpoints/{id}/rotate-secret/; the old secret keeps signing for 24 hours. */
export const rotateSecretAction = authedAction(
  idInput,
  async ({ id }, { db, merchantId }) => ({ secret: (await rotateEndpointSecret(db, merchantId, id)).secret }),
  { permission: "manage_webhooks" },
);

/** Same use-case as POST /api/webhook-endpoints/{id}/test/; the form shows this outcome inline. */
export const sendTestAction = authedAction(
  idInput.and(testEndpointBody),
  async ({ id, event }, { db, merchantId }) => {
    const { delivery, attempt } = await sendTestWebhook(db, merchantId, id, event);
    return {
      succeeded: delivery.status === "succeeded",
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      attempted_at: attempt.attemptedAt.toISOString(),
      error: delivery.lastError,
      delivery_id: delivery.id,
    };
  },
  { permission: "manage_webhooks" },
);

/** Same use-case as POST /api/webhook-deliveries/{id}/redeliver/. */
export const redeliverAction = authedAction(
  idInput,
  async ({ id }, { db, merchantId }) => {
    const delivery = await redeliverWebhook(db, merchantId, id);
    await notifyDeliveriesDue();
    return { id: delivery.id, status: delivery.status };
  },
  { permission: "manage_webhooks" },
);
