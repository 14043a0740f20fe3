import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { env } from "@/lib/env";
import { parseRetryAfter, type AttemptOutcome } from "./retry-schedule";
import { signatureHeaders } from "./signing";
import { anyNonPublic, bareHostname, currentUrlPolicy, parseWebhookUrl, resolveCheckedAddresses, UnsafeUrlError, type ResolvedAddress, type UrlPolicy } from "./url-safety";

/** DESIGN › Webhooks: a receiver gets 10 s to answer (WEBHOOK_ATTEMPT_TIMEOUT_SECONDS). */
export function attemptTimeoutMs(): number {
  return Math.round(env.WEBHOOK_ATTEMPT_TIMEOUT_SECONDS * 1000);
}

/** The attempt error of a receiver that did not answer in time: its own words, apart from "could not be reached". */
export function timedOutError(timeoutMs: number): string {
  return `Timed out: no answer within ${timeoutMs} ms.`;
}
/** Only the first 2 KiB of a response body is kept (and read). */
export const maxResponseBytes = 2 * 1024;

const userAgent = "PaymentGateway-Webhooks/1.0";

// Keep-alive pools: most deliveries go to a handful of receivers.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export interface SendInput {
  url: string;
  body: string;
  messageId: string;
  /** Current secret first, then a previous one still in its rotation window. */
  secrets: readonly [string, ...string[]];
  timeoutMs?: number;
  policy?: UrlPolicy;
}

export interface SendResult extends AttemptOutcome {
  attemptedAt: Date;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseBody: string | null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for node:http that answers with the addresses already checked, never asking DNS again. */
export function pinnedLookup(addresses: ResolvedAddress[]) {
  return (_hostname: string, options: LookupOneOptions | LookupAllOptions | number, callback: LookupCallback) => {
    const all = typeof options === "object" && options !== null && "all" in options && options.all;
    if (all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/**
 * One signed POST of `body` to `url`: 10 s deadline for the whole exchange, no redirects
 * followed, at most 2 KiB of the answer read. The host is resolved and checked against the policy
 * first and the socket connects to exactly those addresses. A target that is not public (a
 * loopback receiver in the sandbox) gets no probe answers back: a non-2xx body is not kept and
 * every network failure reads the same, so test sends cannot map the machine's ports.
 * Never throws: every failure comes back as `error`.
 */
export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const attemptedAt = new Date();
  const started = performance.now();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const requestHeaders: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": userAgent,
    ...signatureHeaders(input.body, input.messageId, input.secrets, timestamp),
  };
  const done = (partial: Partial<SendResult>): SendResult => ({
    statusCode: null,
    error: null,
    retryAfterMs: null,
    refused: false,
    responseBody: null,
    ...partial,
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
    requestHeaders,
  });

  let url: URL;
  let addresses: ResolvedAddress[];
  try {
    const policy = input.policy ?? currentUrlPolicy();
    url = parseWebhookUrl(input.url, policy);
    addresses = await resolveCheckedAddresses(url, policy);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return done({ error: `Refused: ${error.message}`, refused: error.permanent });
    return done({ error: `Refused: ${String(error)}`, refused: true });
  }

  const internal = anyNonPublic(addresses);
  const timeoutMs = input.timeoutMs ?? attemptTimeoutMs();
  const bodyBytes = Buffer.from(input.body, "utf8");
  const isHttps = url.protocol === "https:";

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timedOut = false;
    const finish = (partial: Partial<SendResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(partial));
    };

    const request = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: bareHostname(url),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...requestHeaders, "content-length": String(bodyBytes.length) },
      agent: isHttps ? agents.https : agents.http,
      lookup: pinnedLookup(addresses) as unknown as typeof import("node:dns").lookup,
    });

    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(timedOutError(timeoutMs)));
    }, timeoutMs);

    request.on("response", (response) => {
      const statusCode = response.statusCode ?? null;
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], new Date());
      const chunks: Buffer[] = [];
      let size = 0;
      const keepBody = !internal || (statusCode !== null && statusCode >= 200 && statusCode < 300);
      const complete = () =>
        finish({ statusCode, retryAfterMs, responseBody: keepBody ? Buffer.concat(chunks).subarray(0, maxResponseBytes).toString("utf8") : null });
      response.on("data", (chunk: Buffer) => {
        if (size >= maxResponseBytes) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= maxResponseBytes) {
          complete();
          response.destroy();
        }
      });
      response.on("end", complete);
      response.on("error", complete);
      response.on("close", complete);
    });
    // A timeout is named as such whatever the target (its duration shows it anyway); other network
    // failures of a target on this machine read alike, so sends cannot tell closed ports from open ones.
    request.on("error", (error) =>
      finish({ error: timedOut ? timedOutError(timeoutMs) : internal ? "The receiver on this machine could not be reached." : error.message || String(error) }),
    );
    request.end(bodyBytes);
  });
}
