CREATE TABLE "account_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_kind" varchar(16) NOT NULL,
	"account_id" uuid NOT NULL,
	"device_hash" varchar(64) NOT NULL,
	"user_agent" varchar(300),
	"ip" varchar(64),
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_limits" (
	"level" integer PRIMARY KEY NOT NULL,
	"per_card" numeric(10, 2) NOT NULL,
	"per_day" numeric(10, 2) NOT NULL,
	"per_30_days" numeric(10, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"legal_first_name" varchar(100),
	"legal_last_name" varchar(100),
	"date_of_birth" varchar(10),
	"country" varchar(2) NOT NULL,
	"document_type" varchar(32),
	"address_line1" varchar(200),
	"address_line2" varchar(200),
	"city" varchar(100),
	"postal_code" varchar(20),
	"document_images" text[] DEFAULT '{}' NOT NULL,
	"selfie_image" text,
	"proof_images" text[] DEFAULT '{}' NOT NULL,
	"decision_reason" varchar(32),
	"decision_note" varchar(500),
	"decided_at" timestamp with time zone,
	"decided_by" varchar(254),
	"documents_deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "payee_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verification_level" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "standing" varchar(16) DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "standing_reason" varchar(500);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "standing_note" varchar(2000);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "standing_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_submissions" ADD CONSTRAINT "verification_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_devices_key_idx" ON "account_devices" USING btree ("account_kind","account_id","device_hash");--> statement-breakpoint
CREATE INDEX "verification_submissions_status_created_idx" ON "verification_submissions" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "verification_submissions_user_idx" ON "verification_submissions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_submissions_one_pending_idx" ON "verification_submissions" USING btree ("user_id") WHERE "verification_submissions"."status" = 'pending';--> statement-breakpoint
-- Backfill: methods that already exist are not new; their payouts are not held.
UPDATE "payment_methods" SET "payee_changed_at" = "created_at";--> statement-breakpoint
-- The default limits by level (decision 072); staff edit them in the portal.
INSERT INTO "verification_limits" ("level", "per_card", "per_day", "per_30_days") VALUES
	(0, '500.00', '1000.00', '3000.00'),
	(1, '2000.00', '5000.00', '20000.00'),
	(2, '10000.00', '25000.00', '100000.00');
