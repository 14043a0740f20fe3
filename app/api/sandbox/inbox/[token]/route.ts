import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorResponse, ok } from "@/lib/http/envelope";
import { ApiError } from "@/lib/http/errors";
import { maxBodyBytes } from "@/lib/http/read-body";
import { describeError, log } from "@/lib/log";
import { captureInboxMessage } from "@/lib/webhooks/capture-inbox-message";
import { readCappedText } from "@/lib/http/read-body";

type Context = { params: Promise<{ token?: string | string[] }> };

/**
 * The sandbox capture URL: a webhook receiver, so it takes no credential (the unguessable token
 * in the path is the credential) and is the one route besides /api/inngest outside withApi.
 * It answers in the same envelopes; 404 in live mode or for an unknown token.
 */
async function capture(request: Request, context: Context): Promise<Response> {
  const requestId = randomUUID();
  const headers = { "x-request-id": requestId };
  try {
    if (env.GATEWAY_MODE !== "sandbox") throw new ApiError("NOT_FOUND", "Endpoint not found.");
    const token = (await context.params).token;
    if (typeof token !== "string" || !/^inb_[0-9A-Za-z]{1,64}$/.test(token)) throw new ApiError("NOT_FOUND", "Inbox not found.");
    const body = await readCappedText(request, maxBodyBytes);
    const message = await captureInboxMessage(await getDb(), token, { method: request.method, headers: request.headers, body });
    if (!message) throw new ApiError("NOT_FOUND", "Inbox not found.");
    const result = ok({ id: message.id, signature_valid: message.signatureValid, signature_details: message.signatureDetails }, "Captured.");
    return Response.json(result.body, { status: result.status, headers });
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.code, error.message, { details: error.details, headers });
    log.error("inbox capture failed", { request_id: requestId, ...describeError(error) });
    return errorResponse("INTERNAL_ERROR", "An unexpected error occurred.", { headers });
  }
}

// POST /api/sandbox/inbox/{token}/ – record a webhook (and check its signatures) in the merchant's sandbox inbox
export const POST = capture;
// PUT, PATCH, DELETE, GET /api/sandbox/inbox/{token}/ – recorded the same way, whatever the method
export const PUT = capture;
export const PATCH = capture;
export const DELETE = capture;
export const GET = capture;
