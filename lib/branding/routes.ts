import { defineRoute, okAnswer } from "@/lib/http/define-route";
import { brandingBody, brandingJson, logoBody } from "./schemas";

/** The store's own look on its customer pages and mail. */
export const brandingRoutes = {
  getBranding: defineRoute({
    method: "GET",
    path: "/api/branding",
    access: "read",
    doc: { summary: "Get the store's branding", tags: ["Account"], response: okAnswer(brandingJson) },
  }),
  updateBranding: defineRoute({
    method: "PUT",
    path: "/api/branding",
    access: "manage_account",
    body: brandingBody,
    doc: {
      summary: "Set the store's name, accent colour and support contact",
      description:
        "What customers see on the invoice and payment pages and in the store's mail to them. The accent colour carries white button text, so it must reach a 4.5:1 contrast with white (WCAG AA); a lighter one is 400 VALIDATION_ERROR on `accent_color`.",
      tags: ["Account"],
      bodyExamples: {
        brand: {
          summary: "Name, colour and contacts",
          value: { display_name: "Acme Studio", accent_color: "#1d4ed8", support_email: "help@acme.example", support_url: "https://acme.example/help" },
        },
      },
      response: okAnswer(brandingJson, "Branding saved."),
    },
  }),
  uploadLogo: defineRoute({
    method: "PUT",
    path: "/api/branding/logo",
    access: "manage_account",
    body: logoBody,
    doc: {
      summary: "Upload the store's logo",
      description:
        "A PNG, JPEG, WebP or GIF of at most 1 MB (base64). It is decoded and re-encoded as a PNG of at most 512 px a side with no metadata; SVG and anything else is 400 VALIDATION_ERROR on `image`.",
      tags: ["Account"],
      response: okAnswer(brandingJson, "Logo saved."),
    },
  }),
  deleteLogo: defineRoute({
    method: "DELETE",
    path: "/api/branding/logo",
    access: "manage_account",
    doc: { summary: "Remove the store's logo", tags: ["Account"], response: okAnswer(brandingJson, "Logo removed.") },
  }),
};
