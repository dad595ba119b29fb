ALTER TABLE "uploads" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "removed_reason" varchar(32);