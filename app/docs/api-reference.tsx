"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect, useRef } from "react";
import { repairScalarMarkup } from "./scalar-markup";

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
/*
 * button-name (axe, on a phone): where the client libraries' row is under 380px wide, Scalar hides every label in
 * it with display: none (Shell, Node.js, "More" and the "Select from all clients" screen-reader text), which leaves
 * the tabs and the "More" button without a name. Out of sight there still, but read: visually hidden, as .sr-only.
 */
@container client-libraries-content (width < 380px) {
  .scalar-app .client-libraries span.client-libraries-text,
  .scalar-app .client-libraries span.sr-only {
    display: block;
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border-width: 0;
  }
}
`;

/**
 * Scalar's renderer, bundled with the app (no CDN, no web fonts, no telemetry), reading the live document; its
 * markup repaired where axe finds it serious and its configuration cannot help (./scalar-markup.ts).
 */
export function ApiReference() {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? repairScalarMarkup(root.current) : undefined), []);
  return (
    <div ref={root} style={{ display: "contents" }}>
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
    </div>
  );
}
