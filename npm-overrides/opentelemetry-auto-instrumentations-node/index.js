// inngest imports this only from its experimental extendedTracesMiddleware (inngest/experimental),
// inside a try that logs and goes on without tracing. Say why, should anything else import it.
throw new Error(
  "@opentelemetry/auto-instrumentations-node is not installed: package.json overrides it with npm-overrides/opentelemetry-auto-instrumentations-node. Remove that override to use OpenTelemetry's auto-instrumentation.",
);
