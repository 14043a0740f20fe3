import { ApiError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";

// ANY /api/* that matches no route – 404 NOT_FOUND in the error envelope
const notFound = plainRoute({ route: "/api/[...path]" }, async () => {
  throw new ApiError("NOT_FOUND", "No API endpoint at this path.");
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
