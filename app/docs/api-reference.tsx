"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * Scalar's default theme with its text colours darkened (light) or lightened (dark) to at least
 * 4.5:1 against each of its backgrounds (WCAG AA; its own greys, accent and method colours measured
 * 2.9–4.4:1, 34 serious axe findings). `body.…` outranks the theme's `.light-mode` / `.dark-mode`
 * blocks, which Scalar writes after this CSS; the colours are inherited by everything it renders.
 */
const contrastCss = `
body.light-mode, body.light-mode .scalar-app {
  --scalar-color-2: #505050;
  --scalar-color-3: #5c5c5c;
  --scalar-color-accent: #005fb0;
  --scalar-color-green: #00703c;
  --scalar-color-red: #c00003;
  --scalar-color-yellow: #765a00;
  --scalar-color-blue: #005c9e;
  --scalar-color-orange: #ad3b00;
  --scalar-color-purple: #5203d1;
  --scalar-sidebar-color-2: #505050;
  --scalar-sidebar-search-color: #5c5c5c;
}
body.dark-mode, body.dark-mode .scalar-app {
  --scalar-color-2: #c2c2c2;
  --scalar-color-3: #ababab;
  --scalar-color-accent: #5cbfff;
  --scalar-color-green: #3ad583;
  --scalar-color-red: #ff7b7b;
  --scalar-color-yellow: #f0c419;
  --scalar-color-blue: #6cc6ff;
  --scalar-color-orange: #ffa066;
  --scalar-color-purple: #c8b0ff;
  --scalar-sidebar-color-2: #c2c2c2;
  --scalar-sidebar-search-color: #ababab;
}
`;

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
        customCss: contrastCss,
      }}
    />
  );
}
