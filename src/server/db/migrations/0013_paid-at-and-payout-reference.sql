ALTER TABLE "transactions" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payout_reference" varchar(100);--> statement-breakpoint
-- Cards already paid: the last change is the best record of when (decision 060).
UPDATE "transactions" SET "paid_at" = "updated_at" WHERE "payment_status" IN ('sent', 'confirmed');
