/** Issue 24 item 1: the sign-in callback is decided on the path it hands back, not on the raw value. */
import { describe, expect, test } from "vitest";
import { safeCallbackPath } from "@/lib/http/safe-redirect";

const OFF_SITE = [
  "//evil.example/x",
  "/.//evil.example/x",
  "/././/evil.example/x",
  "/a/..//evil.example/x",
  "/..//evil.example/x",
  "/\\evil.example",
  "/\\/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/.%2F/evil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "/%09/evil.example",
  "/\t/evil.example",
  "/%0a/evil.example",
  "/%20/evil.example",
  "https://evil.example/",
  "javascript:alert(1)",
  "data:text/html,x",
  "http:/evil.example",
  "//user:pw@evil.example/",
  "https://gateway.invalid@evil.example/",
  "evil.example",
  " /dashboard",
];

describe("safeCallbackPath", () => {
  test.each(OFF_SITE)("%j falls back to /dashboard", (value) => {
    expect(safeCallbackPath(value)).toBe("/dashboard");
  });

  test("every answer is a single-slash path on this site, whatever the input", () => {
    for (const value of OFF_SITE) {
      const path = safeCallbackPath(value);
      expect(path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\")).toBe(true);
      expect(new URL(path, "https://pay.example").origin).toBe("https://pay.example");
    }
  });

  test("our own paths, with queries and fragments, come back resolved", () => {
    expect(safeCallbackPath("/dashboard/orders?status=pending#top")).toBe("/dashboard/orders?status=pending#top");
    expect(safeCallbackPath("/dashboard/./orders")).toBe("/dashboard/orders");
    expect(safeCallbackPath("/dashboard/orders?q=a%2Fb")).toBe("/dashboard/orders?q=a%2Fb");
    expect(safeCallbackPath("/user:pw@evil.example")).toBe("/user:pw@evil.example"); // a path on this site
  });
});
