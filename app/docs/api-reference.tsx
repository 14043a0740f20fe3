"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/** Scalar's renderer, bundled with the app (no CDN, no web fonts, no telemetry), reading the live document. */
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: "/api/openapi.json",
        telemetry: false,
        withDefaultFonts: false,
        showDeveloperTools: "never",
        // Scalar's "Ask AI" (on by default on a local address) would send the document to Scalar's service.
        agent: { disabled: true },
        hideClientButton: false,
        documentDownloadType: "json",
        defaultHttpClient: { targetKey: "node", clientKey: "fetch" },
      }}
    />
  );
}
