CREATE TABLE "brand_rate_tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"format" varchar(16) NOT NULL,
	"min_value" numeric(10, 2) NOT NULL,
	"max_value" numeric(10, 2),
	"rate" numeric(5, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instant_decision_policy" (
	"id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"min_level" integer DEFAULT 2 NOT NULL,
	"min_completed_cards" integer DEFAULT 10 NOT NULL,
	"max_card_value" numeric(10, 2) DEFAULT '200.00' NOT NULL,
	"max_daily_total" numeric(10, 2) DEFAULT '500.00' NOT NULL,
	"brands" text[] DEFAULT '{}'::text[] NOT NULL,
	"sample_rate" numeric(5, 4) DEFAULT '0.1' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instant_decision_policy_one_row" CHECK ("instant_decision_policy"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "rate_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"brand" varchar(120) NOT NULL,
	"format" varchar(16),
	"min_rate" numeric(5, 4) NOT NULL,
	"above" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "rate_tier" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "decided_by" varchar(16);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "instant_decision" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "sample_status" varchar(16);--> statement-breakpoint
ALTER TABLE "brand_rate_tiers" ADD CONSTRAINT "brand_rate_tiers_brand_id_brand_rates_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brand_rates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_alerts" ADD CONSTRAINT "rate_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brand_rate_tiers_brand_idx" ON "brand_rate_tiers" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "rate_alerts_user_idx" ON "rate_alerts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "rate_alerts_brand_idx" ON "rate_alerts" USING btree (lower("brand"));--> statement-breakpoint
CREATE INDEX "transactions_user_auto_idx" ON "transactions" USING btree ("user_id","created_at") WHERE "transactions"."decided_by" = 'auto';--> statement-breakpoint
CREATE INDEX "transactions_sample_pending_idx" ON "transactions" USING btree ("created_at","id") WHERE "transactions"."sample_status" = 'pending';--> statement-breakpoint
INSERT INTO "instant_decision_policy" ("id") VALUES (1);