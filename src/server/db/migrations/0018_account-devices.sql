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
CREATE UNIQUE INDEX "account_devices_key_idx" ON "account_devices" USING btree ("account_kind","account_id","device_hash");