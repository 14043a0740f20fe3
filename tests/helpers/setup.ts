// Runs before every test file (vitest.config.ts setupFiles), as instrumentation.ts does at server start.
import { expect } from "vitest";
import { configureZodMessages } from "@/lib/http/zod-messages";

configureZodMessages();

// Which file the phases recorded by tests/helpers/profile.ts belong to.
(globalThis as { __testProfileFile?: string }).__testProfileFile = expect.getState().testPath;
