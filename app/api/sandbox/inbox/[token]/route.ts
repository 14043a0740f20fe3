import { getDb } from "@/lib/db/client";
import { ok } from "@/lib/http/envelope";
import { ApiError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { maxBodyBytes, readCappedText } from "@/lib/http/read-body";
import { captureInboxMessage } from "@/lib/webhooks/capture-inbox-message";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { inboxParams } from "@/lib/webhooks/schemas";

type Context = { params: Promise<{ token?: string | string[] }> };

/**
 * The sandbox capture URL: a webhook receiver, so it takes no credential (the unguessable token
 * in the path is the credential, kept out of the log) and is not a withApi route.
 * It answers in the same envelopes; 404 in live mode or for an unknown token.
 */
const capture = plainRoute<Context>({ definition: webhookRoutes.captureInbox, secretPath: true }, async (request, context) => {
  const token = inboxParams.safeParse(await context.params);
  if (!token.success) throw new ApiError("NOT_FOUND", "Inbox not found.");
  const body = await readCappedText(request, maxBodyBytes);
  const message = await captureInboxMessage(await getDb(), token.data.token, { method: request.method, headers: request.headers, body });
  if (!message) throw new ApiError("NOT_FOUND", "Inbox not found.");
  return ok({ id: message.id, signature_valid: message.signatureValid, signature_details: message.signatureDetails }, "Captured.");
});

// POST /api/sandbox/inbox/{token}/ – record a webhook (and check its signatures) in the merchant's sandbox inbox
export const POST = capture;
// PUT, PATCH, DELETE, GET /api/sandbox/inbox/{token}/ – recorded the same way, whatever the method
export const PUT = capture;
export const PATCH = capture;
export const DELETE = capture;
export const GET = capture;
