ALTER TABLE "disbursements" ADD COLUMN "chain_sent_at" timestamp with time zone;
