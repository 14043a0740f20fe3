// Runs before every test file (vitest.config.ts setupFiles), as instrumentation.ts does at server start.
import { configureZodMessages } from "@/lib/http/zod-messages";

configureZodMessages();
