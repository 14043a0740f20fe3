import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { idParams } from "@/lib/http/schemas";
import {
  claimBody,
  claimJson,
  claimParams,
  createClaimBody,
  createPayoutBody,
  payoutJson,
  payoutSettingsBody,
  payoutSettingsJson,
  payoutTransactionBody,
  publicClaimJson,
  updatePayoutBody,
} from "./schemas";

const csvExample = "address,amount,reference\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,25.5,INV-1001\n0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359,12,INV-1002";

/** Payout batches: many recipients paid by one transaction the merchant's wallet signs. */
export const payoutRoutes = {
  listPayouts: defineRoute({
    method: "GET",
    path: "/api/payouts",
    access: "read",
    query: pageQuery,
    doc: { summary: "List payout batches", description: "Newest first, each with its legs.", tags: ["Payouts"], response: pageAnswer(payoutJson) },
  }),
  createPayout: defineRoute({
    method: "POST",
    path: "/api/payouts",
    access: "create_payments",
    body: createPayoutBody,
    doc: {
      summary: "Create a payout batch",
      description:
        "A draft batch paying one token on one blockchain to many addresses, entered as `legs` or uploaded as `csv` (header row: address, amount, and optionally token, chain, reference). Every row is checked and all problems are answered at once, row by row: 400 VALIDATION_ERROR with `details` keyed `legs.<index>.<field>` or `csv.<line>.<field>` (line 1 is the header) for an address that is not one or whose EIP-55 checksum is wrong, an address of the gateway (deposit addresses, its contracts) or one of your payout wallets, a bad amount, a token unknown on the chain or not the batch's, another chain, and duplicate addresses or references. With `amount_currency` (USD, EUR, …) the amounts are fiat, converted at a rate locked now (`rate`, `rate_locked_at`). Above the account's approval threshold (PUT /api/payout-settings/) `approval_required` is true and a second member must approve before `transaction` appears. The gateway never holds funds: sign `allowance_transaction` (tokens) and `transaction` with your wallet, then report the hash with POST /api/payouts/{id}/transaction/.",
      tags: ["Payouts"],
      bodyExamples: {
        legs: {
          summary: "Entered legs",
          value: {
            blockchain: "base",
            currency: "USDC",
            legs: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", amount: "25.5", reference: "INV-1001" }],
          },
        },
        csv: { summary: "CSV upload, amounts in USD", value: { blockchain: "base", currency: "ETH", amount_currency: "USD", csv: csvExample } },
      },
      response: createdAnswer(payoutJson, "Payout batch saved as a draft."),
      errors: ["INVALID_BLOCKCHAIN", "UNSUPPORTED_CURRENCY", "UNSUPPORTED_PRICE_CURRENCY", "PRICE_FEED_STALE", "PRICE_FEED_UNAVAILABLE"],
    },
  }),
  getPayout: defineRoute({
    method: "GET",
    path: "/api/payouts/[id]",
    access: "read",
    params: idParams,
    doc: {
      summary: "Get a payout batch",
      description: "The batch, its legs and, when it may be signed, the transaction to sign.",
      tags: ["Payouts"],
      response: okAnswer(payoutJson),
    },
  }),
  updatePayout: defineRoute({
    method: "PATCH",
    path: "/api/payouts/[id]",
    access: "create_payments",
    params: idParams,
    body: updatePayoutBody,
    doc: {
      summary: "Change a draft payout batch",
      description:
        "New `legs` or `csv` (checked as on create, and priced at a rate locked now), `amount_currency`, `note`. Only a draft (409 PAYOUT_NOT_EDITABLE otherwise).",
      tags: ["Payouts"],
      response: okAnswer(payoutJson),
      errors: ["PAYOUT_NOT_EDITABLE", "UNSUPPORTED_PRICE_CURRENCY", "PRICE_FEED_STALE", "PRICE_FEED_UNAVAILABLE"],
    },
  }),
  cancelPayout: defineRoute({
    method: "POST",
    path: "/api/payouts/[id]/cancel",
    access: "create_payments",
    params: idParams,
    doc: {
      summary: "Cancel a payout batch",
      description: "A draft or approved batch; not one already sent.",
      tags: ["Payouts"],
      response: okAnswer(payoutJson),
      errors: ["PAYOUT_NOT_EDITABLE"],
    },
  }),
  approvePayout: defineRoute({
    method: "POST",
    path: "/api/payouts/[id]/approve",
    // Owner and admin logins only (a member-only permission: never an API key); the use-case checks it again for every caller.
    access: "manage_account",
    params: idParams,
    doc: {
      summary: "Approve a payout batch",
      description:
        "A second member approves a draft: an owner's or admin's login (403 INSUFFICIENT_PERMISSIONS for other roles and API keys), not the member who made it (403 PAYOUT_APPROVAL_REFUSED). The batch is then frozen and `transaction` appears.",
      tags: ["Payouts"],
      response: okAnswer(payoutJson),
      errors: ["PAYOUT_APPROVAL_REFUSED", "PAYOUT_NOT_EDITABLE"],
    },
  }),
  recordPayoutTransaction: defineRoute({
    method: "POST",
    path: "/api/payouts/[id]/transaction",
    access: "create_payments",
    params: idParams,
    body: payoutTransactionBody,
    doc: {
      summary: "Report a payout batch's transaction",
      description:
        "The hash of the transaction your wallet sent. The batch becomes `sent`; the gateway reads the receipt, marks each leg `paid` or `failed` from the contract's events (a recipient that refuses the money fails alone), and `confirmed` after your wallet's confirmation threshold; a reorg puts the legs back to pending until the transaction is mined again. Refused before approval when approval is required (409 PAYOUT_APPROVAL_REQUIRED).",
      tags: ["Payouts"],
      response: okAnswer(payoutJson),
      errors: ["PAYOUT_APPROVAL_REQUIRED", "PAYOUT_NOT_EDITABLE"],
    },
  }),
  listClaims: defineRoute({
    method: "GET",
    path: "/api/payout-claims",
    access: "read",
    query: pageQuery,
    doc: { summary: "List claim links", description: "Newest first.", tags: ["Payouts"], response: pageAnswer(claimJson) },
  }),
  createClaim: defineRoute({
    method: "POST",
    path: "/api/payout-claims",
    access: "create_payments",
    body: createClaimBody,
    doc: {
      summary: "Create a claim link",
      description:
        "A pull payment: an amount of a token you owe someone who gives their own address at `url` (public; the id is the link's only credential), once, before `expires_at`. Your next batch created with `include_claims: true` on that blockchain and token pays every claimed link as a leg (reference: the link's reference or id); the link is `paid` once that leg is confirmed, and waits for the next batch if the leg fails.",
      tags: ["Payouts"],
      response: createdAnswer(claimJson, "Claim link created: give its url to the recipient."),
      errors: ["INVALID_BLOCKCHAIN", "UNSUPPORTED_CURRENCY", "INVALID_AMOUNT"],
    },
  }),
  showClaim: defineRoute({
    method: "GET",
    path: "/api/payout-claims/[claimId]/claim",
    access: "public",
    params: claimParams,
    clientLimit: { name: "payout-claim", perHour: 60 },
    doc: {
      summary: "See a claim link (recipient)",
      description: "What the link pays and whether it is still open. Public, by the link's id.",
      tags: ["Payouts"],
      response: okAnswer(publicClaimJson),
    },
  }),
  claim: defineRoute({
    method: "POST",
    path: "/api/payout-claims/[claimId]/claim",
    access: "public",
    params: claimParams,
    body: claimBody,
    // Public (the recipient has no credential), so limited per client address like the payment page's endpoints.
    clientLimit: { name: "payout-claim", perHour: 60 },
    doc: {
      summary: "Claim a claim link (recipient)",
      description:
        "The recipient's own address: once per link, before it expires (409 PAYOUT_CLAIM_CLOSED otherwise). Checked like a batch leg: a bad checksum, the gateway's deposit addresses or contracts, or the merchant's own wallets are 400 VALIDATION_ERROR on `address`.",
      tags: ["Payouts"],
      response: okAnswer(publicClaimJson, "Claimed: the merchant's next payout batch pays it."),
      errors: ["PAYOUT_CLAIM_CLOSED", "RATE_LIMITED"],
    },
  }),
  getPayoutSettings: defineRoute({
    method: "GET",
    path: "/api/payout-settings",
    access: "read",
    doc: { summary: "Get the payout approval threshold", tags: ["Payouts"], response: okAnswer(payoutSettingsJson) },
  }),
  setPayoutSettings: defineRoute({
    method: "PUT",
    path: "/api/payout-settings",
    access: "manage_account",
    body: payoutSettingsBody,
    doc: {
      summary: "Set the payout approval threshold",
      description: "Batches saved from now on whose USD worth is above it (or unknown) need a second member's approval. Owner or admin login.",
      tags: ["Payouts"],
      response: okAnswer(payoutSettingsJson),
    },
  }),
};
