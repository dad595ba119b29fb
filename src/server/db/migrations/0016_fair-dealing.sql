CREATE TABLE "scam_check_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"card_type" varchar(120) NOT NULL,
	"card_value" varchar(32) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "waiting_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "scam_check" varchar(8);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "first_decision_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_verified_value" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_amount" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_note" varchar(500);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_status" varchar(16);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "offer_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_status" varchar(16);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_message" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_image_urls" text[];--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "appeal_note" varchar(2000);--> statement-breakpoint
ALTER TABLE "scam_check_refusals" ADD CONSTRAINT "scam_check_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scam_check_refusals_user_idx" ON "scam_check_refusals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "support_tickets_awaiting_idx" ON "support_tickets" USING btree ("last_reply_by","waiting_since","id");--> statement-breakpoint
CREATE INDEX "transactions_offer_expires_idx" ON "transactions" USING btree ("offer_expires_at") WHERE "transactions"."offer_status" = 'pending';--> statement-breakpoint
CREATE INDEX "transactions_appeal_created_idx" ON "transactions" USING btree ("appeal_status","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_first_decision_idx" ON "transactions" USING btree ("first_decision_at");--> statement-breakpoint
-- Backfills (decision 073). A ticket waits since its customer's last message: the newest of their
-- replies, or the ticket itself.
UPDATE "support_tickets" SET "waiting_since" = coalesce(
  (SELECT max(r."created_at") FROM "ticket_replies" r
    WHERE r."ticket_id" = "support_tickets"."id" AND r."author_kind" = 'user'),
  "created_at");--> statement-breakpoint
-- A card's first staff decision: its first audited status change.
UPDATE "transactions" SET "first_decision_at" = (
  SELECT min(a."created_at") FROM "audit_log" a
   WHERE a."entity_type" = 'transaction' AND a."entity_id" = "transactions"."id"
     AND a."changes" ? 'status')
 WHERE "status" <> 'pending';--> statement-breakpoint
-- A rejected card was rejected at its last change: the best record there is.
UPDATE "transactions" SET "rejected_at" = "updated_at" WHERE "status" = 'rejected';
