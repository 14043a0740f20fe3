import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import {
  createLinkBody,
  createLinkOrderBody,
  deletedLinkJson,
  linkJson,
  linkOrderJson,
  linkParams,
  listLinksQuery,
  publicLinkJson,
  publicLinkParams,
  updateLinkBody,
} from "./schemas";

const espressoLink = {
  title: "Espresso beans 1 kg",
  amount: "24",
  options: [
    { blockchain: "base", currency: "USDC" },
    { blockchain: "polygon", currency: "USDC" },
  ],
  max_quantity: 5,
};

/** Payment links: the merchant's API and the public page's two calls. */
export const paymentLinkRoutes = {
  listLinks: defineRoute({
    method: "GET",
    path: "/api/payment-links",
    access: "read",
    query: listLinksQuery,
    doc: { summary: "List payment links", description: "Newest first.", tags: ["Payment links"], response: pageAnswer(linkJson) },
  }),
  createLink: defineRoute({
    method: "POST",
    path: "/api/payment-links",
    access: "create_payments",
    body: createLinkBody,
    doc: {
      summary: "Create a payment link",
      description:
        "A reusable link: title, price per item (token `amount`, or fiat `price_amount` + `price_currency` converted per order at the rate of its moment), the tokens and chains the customer may pay with, and an optional `max_quantity`. Share `url`; each customer gets a fresh order. An active link may offer only chains you have an active wallet on (400 WALLET_NOT_CONFIGURED otherwise).",
      tags: ["Payment links"],
      bodyExamples: {
        token: { summary: "Priced in USDC, on two chains, up to 5 items", value: espressoLink },
        fiat: {
          summary: "Priced in EUR, paid in ETH or USDC",
          value: {
            title: "Conference ticket",
            price_amount: "49.00",
            price_currency: "EUR",
            options: [
              { blockchain: "base", currency: "ETH" },
              { blockchain: "base", currency: "USDC" },
            ],
          },
        },
      },
      response: createdAnswer(linkJson, "Payment link created."),
      errors: ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "UNSUPPORTED_PRICE_CURRENCY", "WALLET_NOT_CONFIGURED"],
    },
  }),
  getLink: defineRoute({
    method: "GET",
    path: "/api/payment-links/[id]",
    access: "read",
    params: linkParams,
    doc: { summary: "Get a payment link", tags: ["Payment links"], response: okAnswer(linkJson) },
  }),
  updateLink: defineRoute({
    method: "PUT",
    path: "/api/payment-links/[id]",
    access: "create_payments",
    params: linkParams,
    body: updateLinkBody,
    doc: {
      summary: "Update a payment link",
      description: "Replaces the link's settings (same body as create). Orders already made from it keep theirs. `is_active: false` closes the link.",
      tags: ["Payment links"],
      bodyExamples: { close: { summary: "Close the link", value: { ...espressoLink, is_active: false } } },
      response: okAnswer(linkJson, "Payment link updated."),
      errors: ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "UNSUPPORTED_PRICE_CURRENCY", "WALLET_NOT_CONFIGURED"],
    },
  }),
  deleteLink: defineRoute({
    method: "DELETE",
    path: "/api/payment-links/[id]",
    access: "create_payments",
    params: linkParams,
    doc: {
      summary: "Delete a payment link",
      description: "Its page answers 404 from now on; orders made from it are kept.",
      tags: ["Payment links"],
      response: okAnswer(deletedLinkJson, "Payment link deleted."),
    },
  }),
  getPublicLink: defineRoute({
    method: "GET",
    path: "/api/links/[linkId]",
    access: "public",
    params: publicLinkParams,
    // Public: limited per client address.
    clientLimit: { name: "link-view", perHour: 600 },
    doc: {
      summary: "Get a payment link's public view",
      description:
        "What the public page /link/{id} shows: title, shop, price and options (those the merchant has an active wallet for). Public, limited per client address; inactive or unknown links are 404.",
      tags: ["Payment links", "Payment page"],
      response: okAnswer(publicLinkJson),
    },
  }),
  createLinkOrder: defineRoute({
    method: "POST",
    path: "/api/links/[linkId]/orders",
    access: "public",
    params: publicLinkParams,
    body: createLinkOrderBody,
    // Public (the customer has no credential), so limited per client address: each call creates an order.
    clientLimit: { name: "link-order", perHour: 60 },
    doc: {
      summary: "Create an order from a payment link",
      description:
        "Public: the customer picks one of the link's options and a quantity; the gateway creates a fresh order (its own nonce, order_info naming the link) and answers its `payment_url`. Limited per client address (60 an hour; IPv6 clients per /64). Each order counts toward the merchant's hourly rate limit, and while 50 of the link's orders (200 of all the merchant's link orders) are still pending the link answers 429 RATE_LIMITED.",
      tags: ["Payment links", "Payment page"],
      bodyExamples: { pick: { summary: "Two items, paid in USDC on base", value: { blockchain: "base", currency: "USDC", quantity: 2 } } },
      response: createdAnswer(linkOrderJson, "Order created."),
      errors: ["WALLET_NOT_CONFIGURED", "PRICE_FEED_STALE", "PRICE_FEED_UNAVAILABLE", "UNSUPPORTED_PRICE_CURRENCY", "RATE_LIMITED"],
    },
  }),
};
