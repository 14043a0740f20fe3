import { describe, expect, test } from "vitest";
import { decimalToBaseUnits } from "@/lib/money/decimal";
import { adoptServerTexts, clockText, displayAmount, displayFiat, textsFormattedBy, utcDateTime } from "@/lib/money/display-amount";

describe("displayAmount", () => {
  test("an 18-decimal ETH amount shows six significant digits", () => {
    expect(displayAmount("0.003177077686318523")).toBe("0.00317708");
  });

  test("rounds up, so paying the shown figure is never short of the exact amount", () => {
    for (const exact of ["0.003177077686318523", "1.0000001", "0.1234561", "2.9999999"]) {
      const shown = displayAmount(exact).replaceAll(",", "");
      expect(decimalToBaseUnits(shown, 18) >= decimalToBaseUnits(exact, 18), `${exact} → ${shown}`).toBe(true);
    }
    expect(displayAmount("1.0000001")).toBe("1.00001");
  });

  test("short amounts stay as they are; whole parts are never cut", () => {
    expect(displayAmount("10.5")).toBe("10.5");
    expect(displayAmount("12.25")).toBe("12.25");
    expect(displayAmount("15")).toBe("15");
    expect(displayAmount("0.015")).toBe("0.015");
    expect(displayAmount("1234567.891")).toBe("1,234,568");
    expect(displayAmount("0.000000000000000001")).toBe("0.000000000000000001");
  });

  test("exact beyond a float's precision: the string is not read as a number", () => {
    expect(displayAmount("123456789012345678901234")).toBe("123,456,789,012,345,678,901,234");
  });

  test("follows the locale it is given", () => {
    expect(displayAmount("1234.56789", "de-DE")).toBe("1.234,57");
  });
});

describe("displayFiat", () => {
  test("the price with its currency as the locale writes it", () => {
    expect(displayFiat("10.00", "EUR")).toBe("€10.00");
    expect(displayFiat("1234.5", "USD")).toBe("$1,234.50");
    expect(displayFiat("10", "EUR", "de-DE")).toBe("10,00\u00a0€");
  });

  test("an unknown currency code falls back to the code itself", () => {
    expect(displayFiat("10", "not a currency")).toBe("10 not a currency");
  });
});

describe("textsFormattedBy: a page's first texts, formatted on the server", () => {
  test("holds every text formatted while it runs, each as the formatter wrote it", () => {
    const texts = textsFormattedBy(() => {
      displayAmount("1234.5", "de");
      displayFiat("24.00", "EUR", "fr");
      utcDateTime("2026-11-26T03:19:00.000Z", "en");
    });
    const [amount, fiat, time] = Object.values(texts);
    expect([amount, fiat]).toEqual(["1.234,5", displayFiat("24.00", "EUR", "fr")]);
    expect(`${time} UTC`).toBe(utcDateTime("2026-11-26T03:19:00.000Z", "en"));
  });

  test("records nothing outside it, and the server adopts nothing (its map would only grow)", () => {
    displayAmount("7", "en");
    const key = Object.keys(textsFormattedBy(() => displayAmount("7", "en")))[0]!;
    adoptServerTexts({ [key]: "not what Intl writes" });
    expect(displayAmount("7", "en")).toBe("7");
  });
});

describe("clockText: the countdown", () => {
  test("minutes and seconds, hours only when there are some, never below zero", () => {
    expect(clockText(899_000)).toBe("14:59");
    expect(clockText(7_507_000)).toBe("2:05:07");
    expect(clockText(2_001)).toBe("00:03");
    expect(clockText(-5_000)).toBe("00:00");
  });
});
