import { validationError } from "./errors";

/** Request bodies are capped at 64 KiB (issue #2): a larger one is 400 VALIDATION_ERROR. */
export const maxBodyBytes = 64 * 1024;

/** Reads a request body as text, refusing more than `maxBytes` (400 VALIDATION_ERROR) without buffering past it. */
export async function readCappedText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => validationError({ non_field_errors: [`Request body must not exceed ${maxBytes} bytes.`] });
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads at most maxBodyBytes without buffering more, then parses a JSON object. An empty body is `{}`. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readCappedText(request, maxBodyBytes);
  if (text.trim() === "") return {};

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError({ non_field_errors: ["Request body is not valid JSON."] }, "Malformed JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw validationError({ non_field_errors: ["Request body must be a JSON object."] });
  }
  return parsed as Record<string, unknown>;
}
