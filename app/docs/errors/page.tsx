import type { Metadata } from "next";
import Link from "next/link";
import { allErrorCodes, errorCodes, type ErrorCodeInfo } from "@/lib/http/error-codes";
import { Code, styles } from "../code";

export const metadata: Metadata = { title: "Errors and rate limits" };

// /docs/errors – error envelope, every code with its status, and rate limits
export default function ErrorsGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Errors and rate limits</h1>

      <h2>The error envelope</h2>
      <p>Every error, on every endpoint, has the same shape and the HTTP status of its code:</p>
      <Code>{`
HTTP/1.1 400 Bad Request
x-request-id: 3d5c1b7e-2f0a-4c1e-9a55-0b1f6f0e2a11

{
  "success": false,
  "error": {
    "code": "VALIDATION_ERROR",
    "message": "Request data is invalid.",
    "details": { "amount": ["This field is required."], "nonce": ["Must be an integer (a JSON number)."] }
  },
  "timestamp": "2030-01-01T12:00:00.000Z"
}
`}</Code>
      <p>
        Branch on <code>error.code</code>, never on <code>message</code> (it is for humans and may change). <code>details</code> appears only for validation
        errors. Each operation in the <Link href="/docs">reference</Link> lists exactly the codes it can return.
      </p>

      <h2>Codes</h2>
      <table>
        <thead>
          <tr>
            <th>Code</th>
            <th>HTTP</th>
            <th>Meaning</th>
            <th>Retry?</th>
          </tr>
        </thead>
        <tbody>
          {allErrorCodes.map((code) => {
            const info: ErrorCodeInfo = errorCodes[code];
            return (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>{info.status}</td>
                <td>{info.description}</td>
                <td>{info.retry ?? "No: fix the request"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <h2>Rate limits</h2>
      <p>
        Requests are counted per merchant per hour, shared by all of the merchant&apos;s credentials (login tokens and every API key) and across all gateway
        instances: 1000 an hour on the Standard plan, 5000 on Premium, custom on Enterprise (<code>GET /api/account/</code> shows yours). Every authenticated
        response carries the state:
      </p>
      <Code>{`
X-RateLimit-Limit: 1000
X-RateLimit-Remaining: 998
X-RateLimit-Reset: 1893502800
`}</Code>
      <p>
        <code>X-RateLimit-Reset</code> is the end of the window in unix seconds. Over the limit the answer is 429 with <code>retry_after</code> in the body and{" "}
        <code>Retry-After</code> in the headers:
      </p>
      <Code>{`
HTTP/1.1 429 Too Many Requests
Retry-After: 1800

{ "success": false, "error": { "code": "RATE_LIMITED", "message": "Too many requests. Try again later." }, "retry_after": 1800, "timestamp": "2030-01-01T12:30:00.000Z" }
`}</Code>
      <p>
        Back off: wait <code>retry_after</code> seconds, then retry with exponential backoff and jitter. Registration is also limited to 100 an hour per client
        address, and login to 10 failures in 15 minutes per username and per client address.
      </p>

      <h2 id="idempotency">Retrying safely: Idempotency-Key</h2>
      <p>
        A create that timed out may or may not have happened. Send every authenticated POST with an <code>Idempotency-Key</code> header (1 to 255 printable
        ASCII characters; a UUID v4 is ideal) and retry with the same key: within 24 hours the gateway answers a repeat of the same request (same method, path
        and body; JSON key order does not matter) with the first answer, status and body, instead of running it again.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders/ -H "$A" -H "$J" -H 'Idempotency-Key: 5f1c7a8e-3b9d-4c2a-8f6e-1d2b3c4d5e6f' \\
  -d '{"amount":"12.5","currency":"USDC","blockchain":"base","order_info":"{}","nonce":7}'
# → 201, the order. The same command again:
HTTP/1.1 201 Created
Idempotent-Replayed: true
Original-Request: 0b6f0d52-7d8e-4a44-9c1a-3f3e2b1d9a10
{ "success": true, "data": { "order_id": "ORD-7Kq2xW9pLm3N", … }, … }      # the very same body
`}</Code>
      <ul>
        <li>
          Secrets are shown once. An answer that carries one (a new API key, a webhook endpoint&apos;s secret, a rotated secret) is stored with the secret taken
          out: its replay has <code>null</code> in its place and an <code>Idempotent-Redacted</code> header naming the field (e.g. <code>data.key</code>). The
          retry still creates nothing twice; if the first answer was lost, revoke or rotate and create again.
        </li>
        <li>
          The same key with a different request: 422 <code>IDEMPOTENCY_KEY_REUSED</code>. While the first request is still running: 409{" "}
          <code>IDEMPOTENCY_REQUEST_IN_PROGRESS</code> with <code>Retry-After: 1</code>.
        </li>
        <li>
          Stored and replayed: every 2xx and 4xx answer of the request itself (a validation error too), except 409 and 429, which depend on timing. Not stored:
          5xx answers (the key is free again, so the retry runs again), and 401, 403 and 429 given before the request ran.
        </li>
        <li>Keys belong to your account: another merchant&apos;s key never collides with yours. They expire 24 hours after first use.</li>
      </ul>
      <p>
        Without a key, the order&apos;s <code>nonce</code> still prevents a double order: the retry gets <code>DUPLICATE_NONCE</code>, whose{" "}
        <code>details</code> names the order that has it, and <code>GET /api/payment-orders/?nonce=7</code> returns it:
      </p>
      <Code>{`
{ "success": false,
  "error": { "code": "DUPLICATE_NONCE", "message": "Nonce 7 has already been used for another order (ORD-7Kq2xW9pLm3N).",
             "details": { "nonce": ["Already used by order ORD-7Kq2xW9pLm3N; GET /api/payment-orders/?nonce=7 finds it."],
                          "order_id": ["ORD-7Kq2xW9pLm3N"] } },
  "timestamp": "2030-01-01T12:00:00.000Z" }
`}</Code>
      <p>
        List endpoints refuse query parameters they do not know (400 <code>VALIDATION_ERROR</code>, with the parameter in <code>details</code>), so a misspelt
        filter never silently returns everything.
      </p>

      <h2>Handling errors with the typed client</h2>
      <Code>{`
const { data, error, response } = await gateway.POST("/api/payment-orders", { body });
if (error) {
  switch (error.error.code) {
    case "DUPLICATE_NONCE": return error.error.details?.order_id?.[0];   // the earlier attempt succeeded
    case "RATE_LIMITED": return retryAfter(Number(response.headers.get("retry-after")));
    case "VALIDATION_ERROR": throw new BadRequest(error.error.details);
    default: throw new Error(\`\${error.error.code}: \${error.error.message} (request \${response.headers.get("x-request-id")})\`);
  }
}
`}</Code>
    </main>
  );
}
