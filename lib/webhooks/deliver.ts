import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { env } from "@/lib/env";
import { parseRetryAfter, type AttemptOutcome } from "./retry-schedule";
import { signatureHeaders } from "./signing";
import {
  anyNonPublic,
  bareHostname,
  currentUrlPolicy,
  parseWebhookUrl,
  resolveCheckedAddresses,
  UnsafeUrlError,
  type ResolvedAddress,
  type UrlPolicy,
} from "./url-safety";

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

/**
 * Keep-alive pools: most deliveries go to a handful of receivers. An idle connection is closed
 * after 15 s, or a second before the receiver's own `Keep-Alive: timeout=` hint (Node applies the
 * hint only to an agent that has a timeout of its own).
 */
const agentOptions = { keepAlive: true, maxSockets: 64, timeout: 15_000 };
const agents = {
  http: new http.Agent(agentOptions),
  https: new https.Agent(agentOptions),
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
    if (all)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
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

  const request = { url, addresses, isHttps, headers: requestHeaders, bodyBytes, internal, timeoutMs, deadline: AbortSignal.timeout(timeoutMs) };
  // "stale-connection": the receiver closed the kept-alive connection as this request went out on it
  // (its idle timeout ran out at that moment), unanswered. Sent again at once on a new connection,
  // with the same webhook-id, within the same deadline.
  const first = await postOnce({ ...request, fresh: false });
  return done(first === "stale-connection" ? await postOnce({ ...request, fresh: true }) : first);
}

const unreachable = "The receiver on this machine could not be reached.";

interface PostInput {
  url: URL;
  addresses: ResolvedAddress[];
  isHttps: boolean;
  headers: Record<string, string>;
  bodyBytes: Buffer;
  /** A target on this machine: network failures all read alike (no port probing). */
  internal: boolean;
  timeoutMs: number;
  /** Aborted at the attempt's deadline (both tries together). */
  deadline: AbortSignal;
  /** On a new connection rather than a kept-alive one. */
  fresh: boolean;
}

/**
 * One POST. "stale-connection": it went out on a kept-alive connection that the receiver had
 * closed (reset or closed with no answer), which Node's docs say to send again.
 */
function postOnce(input: PostInput & { fresh: true }): Promise<Partial<SendResult>>;
function postOnce(input: PostInput): Promise<Partial<SendResult> | "stale-connection">;
function postOnce(input: PostInput): Promise<Partial<SendResult> | "stale-connection"> {
  const { url, isHttps } = input;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Partial<SendResult> | "stale-connection") => {
      if (settled) return;
      settled = true;
      input.deadline.removeEventListener("abort", onDeadline);
      resolve(outcome);
    };

    const request = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: bareHostname(url),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...input.headers, "content-length": String(input.bodyBytes.length) },
      // `false`: a connection of its own, never one from the pool (which may hold more closed ones).
      agent: input.fresh ? false : isHttps ? agents.https : agents.http,
      lookup: pinnedLookup(input.addresses) as unknown as typeof import("node:dns").lookup,
    });

    let timedOut = false;
    const onDeadline = () => {
      timedOut = true;
      request.destroy(new Error(timedOutError(input.timeoutMs)));
    };
    if (input.deadline.aborted) onDeadline();
    else input.deadline.addEventListener("abort", onDeadline, { once: true });

    let answered = false;
    request.on("response", (response) => {
      answered = true;
      const statusCode = response.statusCode ?? null;
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], new Date());
      const chunks: Buffer[] = [];
      let size = 0;
      const keepBody = !input.internal || (statusCode !== null && statusCode >= 200 && statusCode < 300);
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
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (timedOut) return finish({ error: timedOutError(input.timeoutMs) });
      if (!input.fresh && request.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE")) return finish("stale-connection");
      finish({ error: input.internal ? unreachable : error.message || String(error) });
    });
    request.end(input.bodyBytes);
  });
}
