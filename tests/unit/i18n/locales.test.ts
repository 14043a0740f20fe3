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

  test("every language has every message of the English file, at every depth (the dashboard's are nested), with the same placeholders", () => {
    type Tree = { [key: string]: string | Tree };
    const entries = (messages: Tree, prefix = ""): Array<[string, string]> =>
      Object.entries(messages).flatMap(([key, value]) =>
        typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`),
      );
    const keys = (messages: Tree) =>
      entries(messages)
        .map(([key]) => key)
        .sort();
    // The names a message fills in ({shop}, {count, plural, …}) and the tags it wraps (<strong>…</strong>);
    // not the text of a plural's branch (`one {day}`), which each language words its own way.
    const placeholders = (text: string) =>
      [...new Set([...text.matchAll(/(?<!\b(?:zero|one|two|few|many|other)\s*|=\d+\s*)\{(\w+)|<(\w+)>/g)].map((m) => m[1] ?? m[2]))].sort();
    const english = new Map(entries(allMessages.en as Tree));
    expect(english.has("dashboard.nav.overview")).toBe(true);
    for (const locale of customerLocales) {
      expect(keys(allMessages[locale] as Tree), locale).toEqual(keys(allMessages.en as Tree));
      for (const [key, text] of entries(allMessages[locale] as Tree)) expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english.get(key)!));
    }
  });
});
