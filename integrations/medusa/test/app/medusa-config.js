// The Medusa store of the end-to-end test (tests/integrations/medusa-shop.e2e.ts): a production-mode
// server on PostgreSQL, with Redis for the event bus, the workflow engine and locking, as Medusa
// recommends for production, and the plugin installed from its packed tarball. The test sets every
// variable; MEDUSA_RUN names this run's Redis queues so runs side by side never take each other's jobs.
const { defineConfig } = require("@medusajs/framework/utils");

const redisUrl = process.env.REDIS_URL;
const run = process.env.MEDUSA_RUN;

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    http: {
      storeCors: "http://localhost:8000",
      adminCors: "http://localhost:7001",
      authCors: "http://localhost:7001",
      jwtSecret: process.env.JWT_SECRET,
      cookieSecret: process.env.COOKIE_SECRET,
    },
  },
  admin: { disable: true },
  plugins: [{ resolve: "@payment-gateway/medusa", options: {} }],
  modules: [
    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl, queueName: `events-${run}` } },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: {
        redis: {
          redisUrl,
          queueName: `workflows-${run}`,
          jobQueueName: `workflow-jobs-${run}`,
          // Its cleaner queue has a fixed name: the run's own key prefix keeps it apart too.
          queueOptions: { prefix: `bull-${run}` },
          workerOptions: { prefix: `bull-${run}` },
        },
      },
    },
    {
      resolve: "@medusajs/medusa/locking",
      options: { providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } }] },
    },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        // Medusa waits this long before acting on a webhook (default 5 s).
        webhook_delay: 200,
        providers: [
          {
            resolve: "@payment-gateway/medusa/providers/gateway",
            id: "crypto",
            options: {
              gatewayUrl: process.env.GATEWAY_URL,
              apiKey: process.env.GATEWAY_API_KEY,
              webhookSecret: process.env.GATEWAY_WEBHOOK_SECRET,
              blockchain: "base",
              currency: "USDC",
              paymentWindowMinutes: Number(process.env.GATEWAY_PAYMENT_WINDOW_MINUTES || 30),
              redirectUrl: "http://localhost:8000/order/confirmed",
            },
          },
        ],
      },
    },
  ],
});
