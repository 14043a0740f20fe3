import { describe, expect, test } from "vitest";
import { customerErrorMessage as customerErrorMessageIn, merchantErrorMessage, walletErrorMessage as walletErrorMessageIn } from "@/lib/http/error-wording";
import { errorCodes } from "@/lib/http/error-codes";
import { customerLocales, wordsFor } from "../../helpers/translate";

const customerErrorMessage = (code: string | undefined | null, context: { shopName: string }) => customerErrorMessageIn(code, context, wordsFor("errors"));
const walletErrorMessage = (error: unknown) => walletErrorMessageIn(error, wordsFor("wallet"));
const noBrowserWalletMessage = wordsFor("wallet")("noBrowserWallet");

const context = { shopName: "Lighthouse Books" };
/** What must never reach a customer: a code, an API path, an HTTP method. */
const developerWords = /[A-Z]{3,}_[A-Z_]+|\/api\/|\b(POST|GET|PUT|PATCH)\b|merchant-wallets/;

describe("customerErrorMessage", () => {
  test("a link on a chain with no wallet: plain words, with the shop's name", () => {
    const message = customerErrorMessage("WALLET_NOT_CONFIGURED", context);
    expect(message).toBe("Lighthouse Books cannot take payments this way right now. Choose another way to pay, or contact Lighthouse Books.");
  });

  test("no code of the error table, and no missing or unknown code, yields developer wording", () => {
    for (const code of [...Object.keys(errorCodes), undefined, null, "SOMETHING_NEW"]) {
      const message = customerErrorMessage(code, context);
      expect(message, String(code)).not.toMatch(developerWords);
      expect(message.length, String(code)).toBeGreaterThan(20);
    }
  });

  test("a shop without a name is 'the shop'", () => {
    expect(customerErrorMessage("WALLET_NOT_CONFIGURED", { shopName: "" })).toContain("contact the shop");
  });
});

describe("customerErrorMessage in every language of the customer pages", () => {
  test("German words with the shop's name; no language yields developer wording", () => {
    expect(customerErrorMessageIn("WALLET_NOT_CONFIGURED", context, wordsFor("errors", "de"))).toBe(
      "Lighthouse Books kann Zahlungen auf diesem Weg derzeit nicht annehmen. Wählen Sie eine andere Zahlungsart oder wenden Sie sich an Lighthouse Books.",
    );
    for (const locale of customerLocales) {
      for (const code of [...Object.keys(errorCodes), undefined, "SOMETHING_NEW"]) {
        const message = customerErrorMessageIn(code, context, wordsFor("errors", locale));
        expect(message, `${locale} ${String(code)}`).not.toMatch(developerWords);
        expect(message.length, `${locale} ${String(code)}`).toBeGreaterThan(10);
      }
      expect(walletErrorMessageIn({ code: 4001 }, wordsFor("wallet", locale)).length, locale).toBeGreaterThan(10);
    }
  });
});

describe("walletErrorMessage", () => {
  test("a rejection in the wallet", () => {
    expect(walletErrorMessage({ name: "UserRejectedRequestError", shortMessage: "User rejected the request." })).toMatch(/cancelled in your wallet/);
    expect(walletErrorMessage({ code: 4001, message: "x" })).toMatch(/cancelled in your wallet/);
  });

  test("no wallet, a chain the wallet cannot switch to, too little money", () => {
    expect(walletErrorMessage({ name: "ProviderNotFoundError" })).toBe(noBrowserWalletMessage);
    expect(walletErrorMessage({ name: "SwitchChainNotSupportedError" })).toMatch(/could not switch networks/);
    expect(
      walletErrorMessage({ shortMessage: "The total cost (gas * gas fee + value) of executing this transaction exceeds the balance of the account." }),
    ).toMatch(/does not hold enough/);
    expect(walletErrorMessage({ shortMessage: "insufficient funds for gas * price + value" })).toMatch(/does not hold enough/);
  });

  test("anything else: no library message reaches the customer, and a way to pay anyway", () => {
    const message = walletErrorMessage({
      name: "HttpRequestError",
      shortMessage: "HTTP request failed.",
      message: "HTTP request failed. URL: http://127.0.0.1:8545",
    });
    expect(message).not.toMatch(/HTTP|127\.0\.0\.1/);
    expect(message).toMatch(/QR code/);
    expect(walletErrorMessage(null)).toBe("");
  });
});

describe("merchantErrorMessage: the same map, in the merchant's words with a link to the fix", () => {
  test("no wallet on the chosen network: says which, and links to the fix", () => {
    const wording = merchantErrorMessage("WALLET_NOT_CONFIGURED", {
      apiMessage: "No active wallet is configured for base; add one with POST /api/merchant-wallets/.",
      chainName: "Base",
    });
    expect(wording).toEqual({
      message: "You have no active wallet on Base, so an order there could not be paid to you. Add one, or choose a network where you have a wallet.",
      fix: { label: "Add a Base wallet", href: "/dashboard/wallets" },
    });
    expect(merchantErrorMessage("WALLET_NOT_CONFIGURED", { apiMessage: "", chainName: "Ethereum" }).fix?.label).toBe("Add an Ethereum wallet");
    expect(merchantErrorMessage("WALLET_NOT_CONFIGURED", { apiMessage: "" }).fix?.label).toBe("Add a wallet");
  });

  test("an API message that already says what to fix is kept, without its API paths", () => {
    expect(merchantErrorMessage("INVALID_BLOCKCHAIN", { apiMessage: "Blockchain 'solana' is not supported; see GET /api/blockchains/." }).message).not.toMatch(
      developerWords,
    );
    expect(merchantErrorMessage("DUPLICATE_NONCE", { apiMessage: "Nonce 42 has already been used for another order (ORD-7Kq2xW9pLm3N)." }).message).toBe(
      "Nonce 42 has already been used for another order (ORD-7Kq2xW9pLm3N).",
    );
  });

  test("every code's example message, and unknown codes, come out without developer wording", () => {
    for (const [code, info] of [...Object.entries(errorCodes), ["SOMETHING_NEW", { example: { message: "x" } }] as const]) {
      const { message } = merchantErrorMessage(code, { apiMessage: info.example.message, chainName: "Base" });
      expect(message, code).not.toMatch(/\/api\/|\b(POST|GET|PUT|PATCH)\b|merchant-wallets|[A-Z]{3,}_[A-Z_]+/);
      expect(message.length, code).toBeGreaterThan(10);
    }
  });
});
