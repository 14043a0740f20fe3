import { describe, expect, test } from "vitest";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { localeFromAcceptLanguage, negotiateCustomerLocale } from "@/lib/i18n/locales";
import { allMessages, customerLocales } from "../../helpers/translate";

describe("the customer pages' locale", () => {
  test("Accept-Language: the first supported language by quality, matched on its primary subtag", () => {
    expect(localeFromAcceptLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(localeFromAcceptLanguage("nl-NL, fr-CH;q=0.7, en;q=0.5")).toBe("fr");
    expect(localeFromAcceptLanguage("en;q=0.3, ja;q=0.9")).toBe("ja");
    expect(localeFromAcceptLanguage("zh-Hant-TW")).toBe("zh");
    expect(localeFromAcceptLanguage("pt-BR;q=0, es")).toBe("es");
    expect(localeFromAcceptLanguage("nl, sv")).toBeNull();
    expect(localeFromAcceptLanguage("*")).toBeNull();
    expect(localeFromAcceptLanguage("")).toBeNull();
  });

  test("the switcher's cookie wins over Accept-Language; English when nothing matches", () => {
    expect(negotiateCustomerLocale("ja", "de-DE")).toBe("ja");
    expect(negotiateCustomerLocale("xx", "de-DE")).toBe("de");
    expect(negotiateCustomerLocale(undefined, null)).toBe("en");
  });

  test("the switcher goes back only to a path on this site", () => {
    expect(safeReturnPath("/pay/ORD-abc")).toBe("/pay/ORD-abc");
    expect(safeReturnPath("//evil.example/x")).toBe("/");
    expect(safeReturnPath("/\\\\evil.example")).toBe("/");
    expect(safeReturnPath("https://evil.example")).toBe("/");
    expect(safeReturnPath(null)).toBe("/");
  });

  test("every language has every message of the English file", () => {
    const keys = (messages: Record<string, Record<string, string>>) =>
      Object.entries(messages)
        .flatMap(([ns, m]) => Object.keys(m).map((k) => `${ns}.${k}`))
        .sort();
    for (const locale of customerLocales) expect(keys(allMessages[locale]), locale).toEqual(keys(allMessages.en));
  });
});
