import { describe, expect, test } from "vitest";
import { contrastRatio, payButtonSnippet } from "@/lib/dashboard/pay-button";

describe("the pay button snippet", () => {
  test("a plain link to the checkout, in the merchant's colours, opening a new tab", () => {
    expect(payButtonSnippet({ url: "https://pay.example.com/link/LNK-abc", label: "Buy now", background: "#0F766E", color: "#ffffff" })).toBe(
      '<a href="https://pay.example.com/link/LNK-abc" target="_blank" rel="noopener" style="display:inline-block;padding:12px 22px;border-radius:8px;background:#0f766e;color:#ffffff;font:600 16px/1.2 system-ui,sans-serif;text-decoration:none">Buy now</a>',
    );
  });

  test("nothing can be smuggled in: the label is escaped, colours must be #rrggbb, the URL http(s)", () => {
    const snippet = payButtonSnippet({
      url: "https://pay.example.com/link/LNK-abc",
      label: '<img src=x onerror="alert(1)">',
      background: "red;position:fixed",
      color: "#fff",
    });
    expect(snippet).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</a>");
    expect(snippet).toContain("background:#1d4ed8;color:#ffffff;");
    expect(snippet).not.toContain("position:fixed");
    expect(payButtonSnippet({ url: "https://x.example/link/LNK-1", label: "  ", background: "#000000", color: "#ffffff" })).toContain(">Pay with crypto</a>");
    expect(() => payButtonSnippet({ url: "javascript:alert(1)", label: "x", background: "#000000", color: "#ffffff" })).toThrow();
  });

  test("contrast ratio as WCAG 2 computes it", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    expect(contrastRatio("#1d4ed8", "#ffffff")).toBeGreaterThan(4.5);
    expect(contrastRatio("#facc15", "#ffffff")).toBeLessThan(4.5);
  });
});
