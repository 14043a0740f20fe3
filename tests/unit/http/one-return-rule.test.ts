/**
 * Issue 49 item 4: an open redirect fixed in sign-in came back in the language switcher, which had a
 * check of its own. The rule for a redirect target taken from a request lives in one place,
 * lib/http/safe-redirect.ts; this fails when the code grows a second one, or a redirect whose target
 * is neither a fixed path of ours nor passed through that file.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(__dirname, "../../..");
const ruleFile = "lib/http/safe-redirect.ts";

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(name) ? [rel] : [];
  });
}

/** The code of every source file of the app, comment lines left out. */
const sources = [...sourceFiles("app"), ...sourceFiles("lib"), ...sourceFiles("components"), "proxy.ts"]
  .filter((file) => file !== ruleFile && !file.endsWith(".d.ts"))
  .map((file) => ({
    file,
    code: readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
      .join("\n"),
  }));

/** Checks with another purpose whose names look like a return-path check. */
const otherChecks: Record<string, string> = {
  assertSafeWebhookUrl: "where webhooks may be sent (SSRF), lib/webhooks/url-safety.ts",
};

/**
 * Redirects whose target is neither a fixed path nor from lib/http/safe-redirect.ts, and why each is
 * not a target taken from a request.
 */
const reviewedSinks: Record<string, string> = {
  "components/pay/return-to-shop.tsx": "the merchant's redirect_url of the order: an absolute http(s) URL it chose at creation (lib/orders/schemas.ts)",
  "components/pay/link-checkout.tsx": "the path of the payment_url the gateway itself answered",
  "components/pay/invoice-checkout.tsx": "the path of the payment_url the gateway itself answered (the invoice's new order)",
  "components/dashboard/create-link-form.tsx": "the current page's own path (usePathname) with the created id",
  "components/dashboard/create-order-form.tsx": "the current page's own path (usePathname) with the created id",
};

/** Places a browser is sent to, with the target expression (group 1). */
const sinks = [
  /\bredirect\(\s*([^)\s][^)]*)\)/g,
  /\bpermanentRedirect\(\s*([^)]*)\)/g,
  /\bredirectTo:\s*([^,}]+)/g,
  /\blocation:\s*([^,}]+)/g,
  /\.set\(\s*["']location["'],\s*([^)]+)\)/gi,
  /\bResponse\.redirect\(\s*([^)]*)\)/g,
  /\brouter\.(?:push|replace)\(\s*([^,)]+)/g,
  /\blocation\.(?:assign|replace)\(\s*([^)]+)\)/g,
  /\blocation\.href\s*=\s*([^;\n]+)/g,
];

/** A fixed path of ours: a string or template literal that starts with "/" (and not "//"). */
const fixedPath = /^["'`]\/(?![/\\])/;

describe("one rule for redirect targets from a request", () => {
  test("no other file decides whether a return path is safe", () => {
    const definitions =
      /\b(?:function|const|let|var)\s+(\w*(?:[Ss]afe|[Ss]ameSite|[Ll]ocal|[Tt]rusted|[Aa]llowed)\w*(?:Path|Url|URL|Redirect|Return|Callback|Target|Next)\w*)\b/g;
    const found = sources.flatMap(({ file, code }) =>
      [...code.matchAll(definitions)]
        .map((m) => m[1]!)
        .filter((name) => !(name in otherChecks))
        .map((name) => `${file}: ${name}`),
    );
    expect(found).toEqual([]);
    const handRolled = /startsWith\(\s*["'`](?:\/\/|\/\\\\|\\\\)/;
    expect(sources.filter(({ code }) => handRolled.test(code)).map(({ file }) => file)).toEqual([]);
  });

  test("every redirect goes to a fixed path or through lib/http/safe-redirect.ts", () => {
    const unchecked: string[] = [];
    for (const { file, code } of sources) {
      const usesRule = code.includes('from "@/lib/http/safe-redirect"');
      for (const sink of sinks) {
        for (const match of code.matchAll(sink)) {
          const target = match[1]!.trim();
          if (fixedPath.test(target) || usesRule || file in reviewedSinks) continue;
          unchecked.push(`${file}: ${match[0].trim()}`);
        }
      }
    }
    expect(unchecked).toEqual([]);
  });

  test("the callers of the rule are the ones the design notes name", () => {
    const callers = sources.filter(({ code }) => code.includes('from "@/lib/http/safe-redirect"')).map(({ file }) => file);
    expect(callers.sort()).toEqual([
      "app/(auth)/sign-in/actions.ts",
      "app/(auth)/sign-in/page.tsx",
      "app/(dashboard)/dashboard/layout.tsx",
      "app/language/[locale]/route.ts",
      "lib/auth/next-auth.ts",
      "proxy.ts",
    ]);
  });
});
