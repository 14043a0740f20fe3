import type { Metadata } from "next";
import Link from "next/link";
import { errorStatus, type ErrorCode } from "@/lib/http/error-codes";
import { Code, styles } from "../code";

export const metadata: Metadata = { title: "Errors and rate limits" };

const meaning: Record<ErrorCode, string> = {
  VALIDATION_ERROR: "The request data is invalid: malformed JSON, a missing or malformed field. `details` maps each field to its messages.",
  INVALID_AMOUNT: "amount is not a positive decimal string, or has more decimals than the token.",
  UNSUPPORTED_CURRENCY: "The currency is not offered on that blockchain (see GET /api/blockchains/).",
  INVALID_BLOCKCHAIN: "The blockchain is not supported by this deployment.",
  WALLET_NOT_CONFIGURED: "No active wallet for that blockchain: add one with POST /api/merchant-wallets/.",
  DUPLICATE_NONCE: "The nonce was already used for another of your orders.",
  INVALID_ORDER_INFO: "order_info is not a string holding valid JSON.",
  ORDER_NOT_REFUNDABLE: "The order cannot be refunded (or take a refund address): only confirmed orders and failed ones that were underpaid or paid late, holding some of the order's currency; overpaid_only needs an overpaid order.",
  REFUND_EXCEEDS_REFUNDABLE: "The refund is more than what is still refundable: received minus refunds requested, pending or confirmed. The message says how much is left.",
  INVALID_TOKEN: "The credential is missing, malformed, expired or revoked (or a refresh token was already used).",
  INVALID_CREDENTIALS: "Wrong username or password.",
  INSUFFICIENT_PERMISSIONS: "The credential lacks the operation's permission, or an API key called a login-only operation.",
  NOT_FOUND: "No such resource for your account, or no such endpoint. Another merchant's resource is not found either.",
  METHOD_NOT_ALLOWED: "The path exists but not with this method.",
  CONFLICT: "The request conflicts with the resource's state (e.g. redelivering to a disabled endpoint).",
  RATE_LIMITED: "Too many requests: wait `retry_after` seconds.",
  INTERNAL_ERROR: "Something failed on our side. The body never carries details; quote the x-request-id header.",
  SERVICE_UNAVAILABLE: "A dependency (chain RPC, sandbox devnet) did not answer. Retry later.",
};

const retry: Partial<Record<ErrorCode, string>> = {
  RATE_LIMITED: "After retry_after",
  INTERNAL_ERROR: "With backoff",
  SERVICE_UNAVAILABLE: "With backoff",
  INVALID_TOKEN: "After refreshing the token",
};

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
        Branch on <code>error.code</code>, never on <code>message</code> (it is for humans and may change). <code>details</code> appears only for
        validation errors. Each operation in the <Link href="/docs">reference</Link> lists exactly the codes it can return.
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
          {(Object.keys(errorStatus) as ErrorCode[]).map((code) => (
            <tr key={code}>
              <td>
                <code>{code}</code>
              </td>
              <td>{errorStatus[code]}</td>
              <td>{meaning[code]}</td>
              <td>{retry[code] ?? "No: fix the request"}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Rate limits</h2>
      <p>
        Requests are counted per merchant per hour, shared by all of the merchant&apos;s credentials (login tokens and every API key) and across all
        gateway instances: 1000 an hour on the Standard plan, 5000 on Premium, custom on Enterprise (<code>GET /api/account/</code> shows yours).
        Every authenticated response carries the state:
      </p>
      <Code>{`
X-RateLimit-Limit: 1000
X-RateLimit-Remaining: 998
X-RateLimit-Reset: 1893502800
`}</Code>
      <p>
        <code>X-RateLimit-Reset</code> is the end of the window in unix seconds. Over the limit the answer is 429 with <code>retry_after</code> in
        the body and <code>Retry-After</code> in the headers:
      </p>
      <Code>{`
HTTP/1.1 429 Too Many Requests
Retry-After: 1800

{ "success": false, "error": { "code": "RATE_LIMITED", "message": "Too many requests. Try again later." }, "retry_after": 1800, "timestamp": "2030-01-01T12:30:00.000Z" }
`}</Code>
      <p>
        Back off: wait <code>retry_after</code> seconds, then retry with exponential backoff and jitter. Registration is also limited to 100 an hour per
        client address, and login to 10 failures in 15 minutes per username and per client address.
      </p>

      <h2>Handling errors with the typed client</h2>
      <Code>{`
const { data, error, response } = await gateway.POST("/api/payment-orders", { body });
if (error) {
  switch (error.error.code) {
    case "DUPLICATE_NONCE": return findExistingOrder(body.nonce);   // the earlier attempt succeeded
    case "RATE_LIMITED": return retryAfter(Number(response.headers.get("retry-after")));
    case "VALIDATION_ERROR": throw new BadRequest(error.error.details);
    default: throw new Error(\`\${error.error.code}: \${error.error.message} (request \${response.headers.get("x-request-id")})\`);
  }
}
`}</Code>
    </main>
  );
}
