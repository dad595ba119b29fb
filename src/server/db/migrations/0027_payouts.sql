-- The opening books (0026) may have left deferred balance checks pending in this transaction, and
-- PostgreSQL alters no table with trigger events pending: run them now.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
CREATE SEQUENCE "public"."ach_trace_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "payout_rails" (
	"rail" varchar(32) PRIMARY KEY NOT NULL,
	"auto_payout" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disbursements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rail" varchar(32) NOT NULL,
	"payment_type" varchar(32),
	"payment_method_id" uuid,
	"amount" bigint NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"idempotency_key" varchar(100) NOT NULL,
	"reference" varchar(200),
	"reference_url" varchar(400),
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(500),
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ach_batch_id" uuid,
	"chain_nonce" integer,
	"chain_tx_hash" varchar(66),
	"chain_raw_tx" text,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disbursements_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "disbursements_status_known" CHECK ("status" IN ('queued', 'submitted', 'confirmed', 'failed', 'cancelled')),
	CONSTRAINT "disbursements_amount_not_negative" CHECK ("amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "disbursement_cards" (
	"disbursement_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"owed" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "disbursement_cards_disbursement_id_transaction_id_pk" PRIMARY KEY("disbursement_id","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "ach_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entries" integer NOT NULL,
	"total" bigint NOT NULL,
	"file_text" text NOT NULL,
	"created_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "disbursement_id" uuid;--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement_cards" ADD CONSTRAINT "disbursement_cards_disbursement_id_disbursements_id_fk" FOREIGN KEY ("disbursement_id") REFERENCES "public"."disbursements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement_cards" ADD CONSTRAINT "disbursement_cards_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disbursements_due_idx" ON "disbursements" USING btree ("due_at") WHERE "disbursements"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "disbursements_status_created_idx" ON "disbursements" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "disbursements_created_idx" ON "disbursements" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "disbursements_user_idx" ON "disbursements" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "disbursements_batch_idx" ON "disbursements" USING btree ("ach_batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_cards_one_open_idx" ON "disbursement_cards" USING btree ("transaction_id") WHERE "disbursement_cards"."active";--> statement-breakpoint
CREATE INDEX "disbursement_cards_transaction_idx" ON "disbursement_cards" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_disbursement_idx" ON "ledger_entries" USING btree ("disbursement_id");
