import { randomUUID } from "node:crypto";
import { errorResponse } from "@/lib/http/envelope";

// ANY /api/* that matches no route – 404 NOT_FOUND in the error envelope
function notFound(): Response {
  return errorResponse("NOT_FOUND", "No API endpoint at this path.", { headers: { "x-request-id": randomUUID() } });
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
