import type { z } from "zod";
import type { FieldErrors } from "./errors";

/** ZodError → the spec's `details` shape `{ field: [messages] }` (nested paths joined with dots). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const details: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "non_field_errors";
    (details[field] ??= []).push(issue.message);
  }
  return details;
}
