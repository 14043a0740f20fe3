import { AbstractPaymentProvider, BigNumber, MathBN, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils";
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  BigNumberInput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types";
import { decimalOf, fiatPrice, proportionalTokenAmount } from "../../lib/amounts";
import { GatewayApi, GatewayApiError, nonceFor, type GatewayMethod, type GatewayOrder, type GatewayOrderStatus } from "../../lib/gateway-api";
import { resolveOptions, type GatewayProviderOptions, type ResolvedOptions } from "../../lib/options";
import { rawBodyOf, verifyWebhook, type Headers } from "../../lib/verify-webhook";

/** Medusa stores the provider as `pp_gateway_<id>`; its webhook URL is /hooks/payment/gateway_<id>. */
export const providerIdentifier = "gateway";

/** A refund the plugin asked the gateway for, kept in the Medusa payment's data. */
export interface RefundRecord {
  /** The gateway's refund id. */
  id: number;
  /** Medusa's refund id (the idempotency key's source). */
  medusa_refund_id: string | null;
  /** What Medusa refunded, in the order's currency (fiat). */
  price_amount: string;
  /** What the gateway refunds, in the token. */
  amount: string;
  currency: string;
  to_address: string;
  status: string;
  /** The transfer to sign with the merchant's wallet (the gateway never holds funds). */
  transaction: { from: string; to: string; data: string; value: string; chainId: number };
}

/**
 * What a payment session (and then the payment) keeps in `data`. The storefront reads it: send the
 * customer to `payment_url`, or show `methods` (each with its amount and deposit address) yourself.
 */
export interface GatewayPaymentData extends Record<string, unknown> {
  session_id: string;
  order_id: string;
  status: GatewayOrderStatus;
  payment_url: string;
  qr_code_url: string;
  expires_at: string;
  blockchain: string | null;
  currency: string;
  amount: string;
  receiving_address: string;
  price_amount: string | null;
  price_currency: string | null;
  rate: string | null;
  methods: GatewayMethod[];
  transaction_hash: string | null;
  amount_received: string;
  refunds?: RefundRecord[];
}

interface InjectedDependencies {
  logger: Logger;
}

/** The session an order was made for: the plugin writes it into the order's order_info. */
function sessionOf(order: Pick<GatewayOrder, "order_info">): string | null {
  try {
    const info = JSON.parse(order.order_info) as { payment_session_id?: unknown };
    return typeof info.payment_session_id === "string" ? info.payment_session_id : null;
  } catch {
    return null;
  }
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).toString();
  } catch {
    return url;
  }
}

function gatewayError(error: unknown, doing: string): MedusaError {
  if (error instanceof GatewayApiError) {
    const type = error.status >= 500 || error.status === 429 ? MedusaError.Types.UNEXPECTED_STATE : MedusaError.Types.INVALID_DATA;
    return new MedusaError(type, `Payment Gateway could not ${doing}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`);
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Payment Gateway could not ${doing}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Where an order stands, for Medusa's authorization at cart completion: paid once the gateway confirmed it. */
function authorizationStatus(status: GatewayOrderStatus): PaymentSessionStatus {
  switch (status) {
    case "confirmed":
      return PaymentSessionStatus.CAPTURED;
    case "pending":
    case "processing":
      // Not paid yet: the order can be placed and waits for the payment (deferred authorization).
      return PaymentSessionStatus.PENDING_AUTHORIZATION;
    case "expired":
      return PaymentSessionStatus.CANCELED;
    case "failed":
      return PaymentSessionStatus.ERROR;
  }
}

function sessionStatus(status: GatewayOrderStatus): PaymentSessionStatus {
  return status === "pending" || status === "processing" ? PaymentSessionStatus.PENDING : authorizationStatus(status);
}

/** What Medusa should do about an order, going by where it stands now (not by the event that announced it). */
function webhookAction(status: GatewayOrderStatus): PaymentActions {
  switch (status) {
    case "confirmed":
      return PaymentActions.SUCCESSFUL;
    case "pending":
    case "processing":
      return PaymentActions.PENDING;
    case "expired":
      return PaymentActions.CANCELED;
    case "failed":
      return PaymentActions.FAILED;
  }
}

/**
 * Medusa v2 payment provider for the Payment Gateway: a payment session is a gateway payment order
 * priced in the cart's currency (the gateway converts at a locked rate); the customer pays on the
 * hosted page; the order is placed awaiting payment and marked paid (authorized and captured) when
 * the signed `payment.confirmed` webhook arrives; refunds from Medusa's admin become gateway refunds.
 */
export default class GatewayPaymentProviderService extends AbstractPaymentProvider<GatewayProviderOptions> {
  static identifier = providerIdentifier;

  protected readonly logger_: Logger;
  protected readonly options_: ResolvedOptions;
  protected readonly api_: GatewayApi;

  static validateOptions(options: Record<string, unknown>): void {
    resolveOptions(options);
  }

  constructor(container: InjectedDependencies, options: GatewayProviderOptions) {
    super(container as unknown as Record<string, unknown>, options);
    this.logger_ = container.logger;
    this.options_ = resolveOptions(options as unknown as Record<string, unknown>);
    this.api_ = new GatewayApi({ baseUrl: this.options_.gatewayUrl, apiKey: this.options_.apiKey });
  }

  private paymentData(sessionId: string, order: GatewayOrder, previous?: Record<string, unknown>): GatewayPaymentData {
    return {
      ...(previous ?? {}),
      session_id: sessionId,
      order_id: order.order_id,
      status: order.status,
      payment_url: order.payment_url,
      qr_code_url: absolute(order.qr_code_url, this.options_.gatewayUrl),
      expires_at: order.expires_at,
      blockchain: order.blockchain,
      currency: order.currency,
      amount: order.amount,
      receiving_address: order.receiving_address,
      price_amount: order.price_amount,
      price_currency: order.price_currency,
      rate: order.rate,
      methods: order.accepted_methods,
      transaction_hash: order.transaction?.transaction_hash ?? null,
      amount_received: order.amount_received,
    };
  }

  private orderIdOf(data: Record<string, unknown> | undefined): string {
    const orderId = data?.order_id;
    if (typeof orderId !== "string")
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Payment Gateway: the payment has no gateway order (data.order_id).");
    return orderId;
  }

  private async fetchOrder(data: Record<string, unknown> | undefined): Promise<GatewayOrder> {
    const orderId = this.orderIdOf(data);
    try {
      return (await this.api_.getOrder(orderId)).data;
    } catch (error) {
      throw gatewayError(error, `read order ${orderId}`);
    }
  }

  /**
   * The gateway order of a payment session, priced in the cart's currency. The Idempotency-Key and the
   * nonce both come from `key`: a repeated call (a retry, a second Medusa instance) gets the same order
   * back, never a second one for the same session.
   */
  private async createOrder(sessionId: string, amount: BigNumberInput, currencyCode: string, key: string): Promise<GatewayOrder> {
    const priceCurrency = currencyCode.toUpperCase();
    const priceAmount = fiatPrice(amount, currencyCode);
    const body = {
      price_amount: priceAmount,
      price_currency: priceCurrency,
      currency: this.options_.currency,
      blockchain: this.options_.blockchain,
      order_info: JSON.stringify({ source: "medusa", payment_session_id: sessionId }),
      ...(this.options_.acceptedMethods.length > 0 ? { accepted_methods: this.options_.acceptedMethods } : {}),
      ...(this.options_.paymentWindowMs ? { expires_at: new Date(Date.now() + this.options_.paymentWindowMs).toISOString() } : {}),
      ...(this.options_.redirectUrl ? { redirect_url: this.options_.redirectUrl } : {}),
    };
    const sameRequest = (order: GatewayOrder | null) =>
      order !== null && sessionOf(order) === sessionId && order.price_amount === priceAmount && order.price_currency === priceCurrency;
    for (let probe = 0; probe < 5; probe++) {
      const nonce = nonceFor(key, probe);
      try {
        return (await this.api_.createOrder({ ...body, nonce }, probe === 0 ? key : `${key}#${probe}`)).data;
      } catch (error) {
        const code = error instanceof GatewayApiError ? error.code : null;
        // Made before (a retry whose body differs only in expires_at, or an earlier call that timed out): that order.
        if (code === "DUPLICATE_NONCE" || code === "IDEMPOTENCY_KEY_REUSED") {
          const existing = await this.api_.findOrderByNonce(nonce).catch(() => null);
          if (sameRequest(existing)) return existing!;
          if (code === "DUPLICATE_NONCE") continue; // another order holds this nonce: the next one
        }
        throw gatewayError(error, "create the payment order");
      }
    }
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "Payment Gateway: no free nonce for the payment order.");
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "");
    if (!sessionId) throw new MedusaError(MedusaError.Types.INVALID_DATA, "Payment Gateway: the payment session has no id.");
    const order = await this.createOrder(sessionId, input.amount, input.currency_code, `medusa-session:${sessionId}`);
    this.logger_.info(
      `Payment Gateway: order ${order.order_id} for payment session ${sessionId} (${order.price_amount} ${order.price_currency} = ${order.amount} ${order.currency})`,
    );
    return { id: order.order_id, status: PaymentSessionStatus.PENDING, data: this.paymentData(sessionId, order) };
  }

  /** A new amount or currency needs a new gateway order (an order's price is locked); otherwise the order as it stands. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = input.data ?? {};
    const sessionId = String(data.session_id ?? input.context?.idempotency_key ?? "");
    const priceAmount = fiatPrice(input.amount, input.currency_code);
    const priceCurrency = input.currency_code.toUpperCase();
    if (typeof data.order_id === "string" && data.price_amount === priceAmount && data.price_currency === priceCurrency) {
      const order = await this.fetchOrder(data);
      return { status: sessionStatus(order.status), data: this.paymentData(sessionId, order, data) };
    }
    const order = await this.createOrder(sessionId, input.amount, input.currency_code, `medusa-session:${sessionId}:${priceAmount}:${priceCurrency}`);
    return { status: PaymentSessionStatus.PENDING, data: this.paymentData(sessionId, order) };
  }

  /** The gateway has nothing to delete: an unpaid order expires on its own. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data };
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const order = await this.fetchOrder(input.data);
    const sessionId = String(input.data?.session_id ?? sessionOf(order) ?? "");
    return { status: authorizationStatus(order.status), data: this.paymentData(sessionId, order, input.data) };
  }

  /** Money on chain is already the merchant's: capturing only checks the gateway confirmed it. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const order = await this.fetchOrder(input.data);
    if (order.status !== "confirmed") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Payment Gateway: order ${order.order_id} is ${order.status}, not confirmed; it cannot be captured.`,
      );
    }
    return { data: this.paymentData(String(input.data?.session_id ?? ""), order, input.data) };
  }

  /** Nothing to cancel at the gateway: an unpaid order expires; a paid one is refunded instead. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: input.data };
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const order = await this.fetchOrder(input.data);
    return { status: sessionStatus(order.status), data: this.paymentData(String(input.data?.session_id ?? ""), order, input.data) };
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const order = await this.fetchOrder(input.data);
    return { data: this.paymentData(String(input.data?.session_id ?? ""), order, input.data) };
  }

  /** Where a refund goes: the address the customer left on the payment page, else the wallet that paid. */
  private async refundAddress(order: GatewayOrder): Promise<string> {
    if (order.refund_address) return order.refund_address;
    const hash = order.transaction?.transaction_hash;
    if (!hash) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment Gateway: order ${order.order_id} has no payment to refund.`);
    try {
      return (await this.api_.getTransaction(hash)).data.from_address;
    } catch (error) {
      throw gatewayError(error, `read the payment ${hash}`);
    }
  }

  /**
   * A gateway refund of the same share of the order as Medusa refunds of the cart's price (the last
   * refund of an order takes whatever is left, so rounding never strands a unit). The gateway never
   * holds funds: the refund is a transfer the merchant signs with the wallet the deposit went to (the
   * gateway dashboard's order page has the button); its `transaction` is kept in the payment's data.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = (input.data ?? {}) as Partial<GatewayPaymentData>;
    const order = await this.fetchOrder(data);
    const refundFiat = decimalOf(input.amount);
    const price = order.price_amount ?? data.price_amount;
    if (!price) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment Gateway: order ${order.order_id} has no fiat price to refund against.`);
    const previous = data.refunds ?? [];
    const refundedBefore = previous.reduce((sum, refund) => MathBN.add(sum, refund.price_amount), MathBN.convert(0));
    const isLast = MathBN.gte(MathBN.add(refundedBefore, refundFiat), price);
    let amount: string | undefined;
    if (!isLast) {
      let decimals: number;
      try {
        decimals = (await this.api_.getPublicOrder(order.order_id)).data.token.decimals;
      } catch (error) {
        throw gatewayError(error, `read order ${order.order_id}`);
      }
      amount = proportionalTokenAmount(order.amount, refundFiat, price, decimals);
      if (MathBN.lte(amount, 0))
        throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment Gateway: ${refundFiat} ${order.price_currency} is less than the token's smallest unit.`);
    }
    const toAddress = await this.refundAddress(order);
    const medusaRefundId = input.context?.idempotency_key ?? null;
    const key = `medusa-refund:${medusaRefundId ?? `${order.order_id}:${previous.length}`}`;
    let refund;
    try {
      refund = (
        await this.api_.createRefund(
          order.order_id,
          { ...(amount ? { amount } : {}), to_address: toAddress, reason: `Medusa refund${medusaRefundId ? ` ${medusaRefundId}` : ""}` },
          key,
        )
      ).data;
    } catch (error) {
      throw gatewayError(error, `refund order ${order.order_id}`);
    }
    this.logger_.info(
      `Payment Gateway: refund ${refund.id} of order ${order.order_id}: ${refund.amount} ${refund.currency} to ${refund.to_address} (${refundFiat} ${order.price_currency}), waiting for the merchant's transfer`,
    );
    const record: RefundRecord = {
      id: refund.id,
      medusa_refund_id: medusaRefundId,
      price_amount: refundFiat,
      amount: refund.amount,
      currency: refund.currency,
      to_address: refund.to_address,
      status: refund.status,
      transaction: refund.transaction,
    };
    return { data: { ...data, refunds: [...previous, record] } };
  }

  /**
   * A webhook from the gateway (POST /hooks/payment/gateway_<id>). Both signatures are checked on
   * the raw body and a timestamp outside the tolerance is refused; anything that fails is logged and
   * ignored. A genuine event names the order; what Medusa does then follows the order as the gateway
   * has it now (read back with the API key), so a retried, replayed or overtaken event can only repeat
   * the step the order is at, never undo one.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const ignored: WebhookActionResult = { action: PaymentActions.NOT_SUPPORTED };
    const raw = rawBodyOf(payload.rawData);
    if (!raw) {
      this.logger_.warn("Payment Gateway webhook rejected: no raw body (is the route's raw body preserved?)");
      return ignored;
    }
    const verification = verifyWebhook(raw, payload.headers as Headers, this.options_.webhookSecrets, this.options_.webhookToleranceSeconds);
    if (!verification.ok) {
      this.logger_.warn(`Payment Gateway webhook rejected: ${verification.reason}`);
      return ignored;
    }
    let event: { event?: unknown; data?: { order_id?: unknown } };
    try {
      event = JSON.parse(raw.toString("utf8"));
    } catch {
      this.logger_.warn(`Payment Gateway webhook ${verification.webhookId} rejected: not JSON`);
      return ignored;
    }
    const orderId = event.data?.order_id;
    if (typeof event.event !== "string" || !event.event.startsWith("payment.") || typeof orderId !== "string") {
      this.logger_.info(`Payment Gateway webhook ${verification.webhookId}: ${String(event.event)} needs nothing from Medusa`);
      return ignored;
    }
    // A failure to read the order throws: Medusa's event bus retries the event.
    const order = await this.fetchOrder({ order_id: orderId });
    const sessionId = sessionOf(order);
    if (!sessionId) {
      this.logger_.info(`Payment Gateway webhook ${verification.webhookId}: order ${orderId} was not made by Medusa`);
      return ignored;
    }
    const action = webhookAction(order.status);
    if (order.at_risk)
      this.logger_.warn(
        `Payment Gateway: order ${orderId} is at risk (its payment was reorganised out of the chain after confirmation); check the money arrived`,
      );
    this.logger_.info(
      `Payment Gateway webhook ${verification.webhookId}: ${event.event} for ${orderId}, now ${order.status}: ${action} for payment session ${sessionId}`,
    );
    return { action, data: { session_id: sessionId, amount: new BigNumber(order.price_amount ?? 0) } };
  }
}
