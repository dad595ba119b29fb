ALTER TABLE "transactions" ADD COLUMN "claimed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "claimed_by_name" varchar(200);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "claimed_until" timestamp with time zone;