/** queries of lib/webhooks, split by table or topic; importers use this index. */
export * from "./endpoints";
export * from "./events";
export * from "./deliveries";
export * from "./inbox";
