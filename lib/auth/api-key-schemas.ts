import { z } from "zod";
import { timestamp } from "@/lib/http/schemas";
import { permission, permissionPreset } from "./permissions";
import { secondFactorReauth } from "./schemas";

export const createApiKeyBody = z
  .object({
    name: z.string().trim().min(1, "Name must not be empty.").max(100).describe("What the key is for, e.g. 'checkout backend'"),
    permissions: z.array(permission).min(1, "Give at least one permission.").optional().describe("Explicit permissions; or give a preset"),
    preset: permissionPreset.optional().describe("read_only | create_payments | manage_webhooks | full_access"),
    expires_at: z.iso
      .datetime({ offset: true, message: "Enter an ISO 8601 timestamp with a time zone." })
      .optional()
      .nullable()
      .describe("When the key stops working; omitted or null = never"),
    reauth: secondFactorReauth.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.permissions === !body.preset) {
      ctx.addIssue({ code: "custom", path: ["permissions"], message: "Give either permissions or a preset, not both or neither." });
    }
  });
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

// Response shapes: exactly what lib/auth/api-keys.ts `serializeApiKey` returns (plus `key` once, at creation).
export const apiKeyJson = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, to recognise it (the secret is never shown again)"),
  permissions: z.array(permission),
  expires_at: timestamp.nullable(),
  last_used_at: timestamp.nullable(),
  created_at: timestamp,
  created_by: z
    .number()
    .int()
    .nullable()
    .describe(
      "The user id of the login that made the key (null: that login no longer exists). The key is narrowed when that member's role shrinks and revoked when they leave the account",
    ),
  revoked: z.boolean(),
  revoked_at: timestamp.nullable(),
});

export const createdApiKeyJson = apiKeyJson.extend({
  key: z.string().describe("The secret (sk_live_… or sk_test_…): shown in this response only"),
});
