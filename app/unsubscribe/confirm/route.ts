import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { unsubscribe } from "@/lib/mail/customer-mail";

// POST /unsubscribe/confirm?token=… – the unsubscribe page's button: suppress, then show the page's confirmation
export async function POST(request: Request) {
  const url = new URL(request.url);
  try {
    await unsubscribe(await getDb(), url.searchParams.get("token") ?? "");
  } catch (error) {
    if (error instanceof ApiError)
      return new Response("This unsubscribe link is invalid.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
    throw error;
  }
  // A path of this site, never one built from the request's Host.
  return new Response(null, { status: 303, headers: { location: "/unsubscribe?done=1" } });
}
