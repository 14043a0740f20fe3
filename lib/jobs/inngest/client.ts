import "server-only";
import { Inngest } from "inngest";

/**
 * The Inngest client (JOBS_DRIVER=inngest). The SDK reads its own INNGEST_EVENT_KEY,
 * INNGEST_SIGNING_KEY and INNGEST_DEV variables.
 */
export const inngest = new Inngest({ id: "payment-gateway" });
