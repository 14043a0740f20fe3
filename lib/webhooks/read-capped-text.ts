import { validationError } from "@/lib/http/errors";

/** Reads a request body as text, refusing more than `maxBytes` without buffering past it. */
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
