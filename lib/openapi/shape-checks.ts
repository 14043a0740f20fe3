import type { z } from "zod";
import type { apiKeyJson, createdApiKeyJson } from "@/lib/auth/api-key-schemas";
import type { serializeAccount } from "@/lib/auth/account";
import type { serializeApiKey } from "@/lib/auth/api-keys";
import type { accountJson } from "@/lib/auth/schemas";
import type { blockchainJson } from "@/lib/chains/schemas";
import type { serializeBlockchain } from "@/lib/chains/serialize";
import type { publicOrderJson, orderJson, orderListItemJson } from "@/lib/orders/schemas";
import type { serializePublicOrder } from "@/lib/orders/public-order";
import type { createOrderFromLink, serializeLink, serializePublicLink } from "@/lib/payment-links/payment-links";
import type { linkJson, linkOrderJson, publicLinkJson } from "@/lib/payment-links/schemas";
import type { serializeOrder, serializeOrderListItem } from "@/lib/orders/serialize";
import type { dripFaucet, mine, payOrder } from "@/lib/sandbox/sandbox-tools";
import type { faucetJson, mineJson, payOrderJson, simulatedPaymentJson } from "@/lib/sandbox/schemas";
import type { simulatePayment } from "@/lib/sandbox/simulate-payment";
import type { transactionJson, transactionListItemJson } from "@/lib/transactions/schemas";
import type { serializeTransaction, serializeTransactionListItem } from "@/lib/transactions/serialize";
import type { walletJson } from "@/lib/wallets/schemas";
import type { publicRefundAddressJson, refundJson } from "@/lib/refunds/schemas";
import type { serializeRefund } from "@/lib/refunds/serialize";
import type { setRefundAddress } from "@/lib/refunds/set-refund-address";
import type { serializeWallet } from "@/lib/wallets/serialize";
import type { attemptJson, deliveryJson, endpointJson, endpointWithSecretJson, eventJson, inboxMessageJson } from "@/lib/webhooks/schemas";
import type {
  serializeAttempt,
  serializeDelivery,
  serializeEndpoint,
  serializeEndpointWithSecret,
  serializeEvent,
  serializeInboxMessage,
} from "@/lib/webhooks/serialize";

/**
 * Compile-time guard that the response schemas (lib/<domain>/schemas.ts `…Json`) describe what the
 * serializers return: the same top-level fields, and every value a schema allows fits the
 * serializer's type. Adding, removing or retyping a serializer field without its schema fails the type check.
 * Type-only: nothing here runs.
 */

type Keys<T> = T extends unknown ? keyof T : never;
type SameKeys<Schema, Serialized> = [Keys<Schema>] extends [Keys<Serialized>] ? ([Keys<Serialized>] extends [Keys<Schema>] ? true : false) : false;
/** Literal and template-literal types (`0x${string}`, status unions) widened to their primitive. */
type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? Widen<U>[]
        : T extends object
          ? { [K in keyof T]: Widen<T[K]> }
          : T;
type Fits<Schema, Serialized> = [Schema] extends [Widen<Serialized>] ? true : false;
type Matches<S extends z.ZodType, Serialized> = SameKeys<z.output<S>, Serialized> extends true ? Fits<z.output<S>, Serialized> : false;

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type ShapeChecks = [
  Matches<typeof orderJson, Result<typeof serializeOrder>>,
  Matches<typeof orderListItemJson, Result<typeof serializeOrderListItem>>,
  Matches<typeof walletJson, Result<typeof serializeWallet>>,
  Matches<typeof blockchainJson, Result<typeof serializeBlockchain>>,
  Matches<typeof apiKeyJson, Result<typeof serializeApiKey>>,
  Matches<typeof createdApiKeyJson, Result<typeof serializeApiKey> & { key: string }>,
  Matches<typeof accountJson, Result<typeof serializeAccount>>,
  Matches<typeof transactionJson, Result<typeof serializeTransaction>>,
  Matches<typeof transactionListItemJson, Result<typeof serializeTransactionListItem>>,
  Matches<typeof endpointJson, Result<typeof serializeEndpoint>>,
  Matches<typeof endpointWithSecretJson, Result<typeof serializeEndpointWithSecret>>,
  Matches<typeof attemptJson, Result<typeof serializeAttempt>>,
  Matches<typeof deliveryJson, Result<typeof serializeDelivery>>,
  Matches<typeof eventJson, Result<typeof serializeEvent>>,
  Matches<typeof inboxMessageJson, Result<typeof serializeInboxMessage>>,
  Matches<typeof payOrderJson, Result<typeof payOrder>>,
  Matches<typeof mineJson, Result<typeof mine>>,
  Matches<typeof faucetJson, Result<typeof dripFaucet>>,
  Matches<typeof publicOrderJson, Result<typeof serializePublicOrder>>,
  Matches<typeof simulatedPaymentJson, Result<typeof simulatePayment>>,
  Matches<typeof linkJson, Result<typeof serializeLink>>,
  Matches<typeof publicLinkJson, Result<typeof serializePublicLink>>,
  Matches<typeof linkOrderJson, Result<typeof createOrderFromLink>>,
  Matches<typeof refundJson, Result<typeof serializeRefund>>,
  Matches<typeof publicRefundAddressJson, Result<typeof setRefundAddress>>,
];

type AllTrue<T extends readonly boolean[]> = T[number] extends true ? true : false;
/** Fails to compile when any check above is false (hover ShapeChecks to see which). */
export const shapesMatch: AllTrue<ShapeChecks> = true;
