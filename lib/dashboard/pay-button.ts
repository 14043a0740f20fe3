/**
 * The pay button a merchant pastes into a site without a backend: a plain link to the payment
 * link's hosted checkout, styled inline in the merchant's colours, so it works in any HTML page,
 * site builder or e-mail without a script.
 */
export interface PayButtonOptions {
  /** The payment link's public URL (…/link/LNK-…). */
  url: string;
  label: string;
  /** #rrggbb */
  background: string;
  /** #rrggbb */
  color: string;
}

export const defaultPayButton = { label: "Pay with crypto", background: "#1d4ed8", color: "#ffffff" } as const;

const hexColor = /^#[0-9a-f]{6}$/i;

export function isHexColor(value: string): boolean {
  return hexColor.test(value);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** The snippet's inline style: colours that are not #rrggbb fall back to the defaults (no CSS can be smuggled in). */
export function payButtonStyle(options: Pick<PayButtonOptions, "background" | "color">): string {
  const background = isHexColor(options.background) ? options.background.toLowerCase() : defaultPayButton.background;
  const color = isHexColor(options.color) ? options.color.toLowerCase() : defaultPayButton.color;
  return `display:inline-block;padding:12px 22px;border-radius:8px;background:${background};color:${color};font:600 16px/1.2 system-ui,sans-serif;text-decoration:none`;
}

/** The HTML to paste: opens the hosted checkout in a new tab. Only http(s) URLs; the label is escaped. */
export function payButtonSnippet(options: PayButtonOptions): string {
  const url = new URL(options.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("A pay button links to an http(s) URL.");
  const label = options.label.trim() || defaultPayButton.label;
  return `<a href="${escapeHtml(url.href)}" target="_blank" rel="noopener" style="${payButtonStyle(options)}">${escapeHtml(label)}</a>`;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
