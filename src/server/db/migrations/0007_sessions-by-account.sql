-- Sessions are now keyed by the SHA-256 of their token: rows written before cannot match any cookie.
DELETE FROM "sessions";
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "account_kind" varchar(16);--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");