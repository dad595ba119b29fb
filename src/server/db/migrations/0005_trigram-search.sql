-- Staff search matches card types and emails anywhere in the text (ILIKE '%...%'): trigram
-- indexes answer that without reading every row.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_card_type_trgm_idx" ON "transactions" USING gin ("card_type" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
