import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import type { ProviderWebhookPayload } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules, PaymentActions, PaymentSessionStatus, PaymentWebhookEvents } from "@medusajs/framework/utils";
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows";
import { providerIdentifier } from "../providers/gateway/service";

/** Sessions whose money has not arrived: the only ones a closed gateway order may close. */
const unpaid = new Set<string>([PaymentSessionStatus.PENDING, PaymentSessionStatus.PENDING_AUTHORIZATION, PaymentSessionStatus.REQUIRES_MORE]);

/**
 * Medusa's own webhook subscriber completes carts and captures payments, but does nothing when a
 * payment will never come. This one does, for the gateway's orders: when a verified webhook says the
 * order expired or failed (the provider reads the order back from the gateway), the payment session is
 * marked canceled (or error), and an order that was placed awaiting this payment is canceled, which
 * releases its stock. A session already authorized or captured is never touched.
 */
export default async function gatewayPaymentClosed({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  if (!event.data?.provider?.startsWith(`${providerIdentifier}_`)) return;
  const paymentModule = container.resolve(Modules.PAYMENT);
  const result = await paymentModule.getWebhookActionAndData(event.data);
  const sessionId = result.data?.session_id;
  if (!sessionId || (result.action !== PaymentActions.CANCELED && result.action !== PaymentActions.FAILED)) return;

  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER);
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "amount", "currency_code", "data", "payment_collection_id"],
    filters: { id: sessionId },
  });
  const session = sessions[0];
  if (!session || !unpaid.has(session.status)) return;

  await paymentModule.updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: session.data ?? {},
    status: result.action === PaymentActions.CANCELED ? PaymentSessionStatus.CANCELED : PaymentSessionStatus.ERROR,
  });

  const { data: links } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order.id", "order.status"],
    filters: { payment_collection_id: session.payment_collection_id },
  });
  const order = links[0]?.order as { id: string; status: string } | undefined;
  if (order && order.status !== "canceled") {
    await cancelOrderWorkflow(container).run({ input: { order_id: order.id } });
    logger.info(
      `Payment Gateway: order ${order.id} canceled, its payment ${result.action === PaymentActions.CANCELED ? "expired" : "failed"} (payment session ${session.id})`,
    );
  } else {
    logger.info(`Payment Gateway: payment session ${session.id} closed, its payment ${result.action === PaymentActions.CANCELED ? "expired" : "failed"}`);
  }
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "payment-gateway-closed-payments" },
};
