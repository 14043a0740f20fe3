import { logoPng } from "@/lib/branding/branding";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// GET /store-logo/{merchant_id} – a store's logo as re-encoded on upload: always PNG, never the uploaded bytes
export async function GET(_request: Request, { params }: { params: Promise<{ merchantId: string }> }) {
  const { merchantId } = await params;
  const png = /^\d{1,9}$/.test(merchantId) ? await logoPng(await getDb(), Number(merchantId)) : null;
  if (!png) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(png), {
    headers: {
      "content-type": "image/png",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      // The URL carries ?v=<upload time>: a new logo is a new URL.
      "cache-control": "public, max-age=86400",
    },
  });
}
