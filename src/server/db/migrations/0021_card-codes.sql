ALTER TABLE "transactions" ADD COLUMN "card_code" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "card_code_last4" varchar(4);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "card_code_hash" varchar(64);--> statement-breakpoint
CREATE INDEX "transactions_card_code_hash_idx" ON "transactions" USING btree ("card_code_hash") WHERE "transactions"."card_code_hash" is not null;