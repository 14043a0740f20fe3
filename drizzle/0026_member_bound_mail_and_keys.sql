ALTER TABLE "api_keys" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "recipient_user_id" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_merchants_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."merchants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_recipient_user_id_merchants_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_creator_idx" ON "api_keys" USING btree ("merchant_id","created_by");--> statement-breakpoint
CREATE INDEX "mail_outbox_recipient_idx" ON "mail_outbox" USING btree ("recipient_user_id","created_at");--> statement-breakpoint
-- Keys made before keys named their maker were made by the account's own login (the only one then).
UPDATE "api_keys" SET "created_by" = "merchant_id" WHERE "created_by" IS NULL;--> statement-breakpoint
-- Mail about a login went to that login's own row; an invitation to the login using its address, if any.
UPDATE "mail_outbox" SET "recipient_user_id" = "merchant_id" WHERE "kind" <> 'invitation';--> statement-breakpoint
UPDATE "mail_outbox" AS o SET "recipient_user_id" = m."id" FROM "merchants" AS m WHERE o."kind" = 'invitation' AND lower(m."email") = lower(o."to_address");
