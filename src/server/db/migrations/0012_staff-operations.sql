CREATE TABLE "brand_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand" varchar(120) NOT NULL,
	"rate" numeric(5, 4) NOT NULL,
	"minimum" numeric(10, 2) NOT NULL,
	"position" integer NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author_kind" varchar(16) NOT NULL,
	"author_id" uuid,
	"author_name" varchar(200),
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "unread_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "needs_reply" boolean GENERATED ALWAYS AS (last_sender_type = 'user') STORED;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "last_reply_by" varchar(16) DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "reply_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "rejection_reason" varchar(32);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "rejection_note" varchar(500);--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "perceptual_hash" bigint;--> statement-breakpoint
ALTER TABLE "validation_logs" ADD COLUMN "related_transaction_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_replies" ADD CONSTRAINT "ticket_replies_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brand_rates_brand_lower_idx" ON "brand_rates" USING btree (lower("brand"));--> statement-breakpoint
CREATE INDEX "ticket_replies_ticket_idx" ON "ticket_replies" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_conversations_needs_reply_idx" ON "chat_conversations" USING btree ("needs_reply","last_message_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_transaction_idx" ON "feedback" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transactions_validation_created_idx" ON "transactions" USING btree ("validation_status","created_at","id");--> statement-breakpoint
-- The specification's rate table is the seed; Other (unlisted brands) keeps 0.85.
INSERT INTO brand_rates (brand, rate, minimum, position) VALUES
  ('Amazon', 0.91, 25.00, 1),
  ('Visa', 0.91, 50.00, 2),
  ('iTunes', 0.90, 25.00, 3),
  ('Mastercard', 0.90, 50.00, 4),
  ('Walmart', 0.89, 25.00, 5),
  ('Google Play', 0.89, 50.00, 6),
  ('Microsoft', 0.89, 50.00, 7),
  ('Onevanilla', 0.89, 50.00, 8),
  ('Target', 0.88, 50.00, 9),
  ('Starbucks', 0.88, 50.00, 10),
  ('Xbox', 0.88, 25.00, 11),
  ('PlayStation', 0.88, 50.00, 12),
  ('Nintendo', 0.88, 50.00, 13),
  ('Lululemon', 0.88, 50.00, 14),
  ('Airbnb', 0.88, 50.00, 15),
  ('Ebay', 0.88, 50.00, 16),
  ('Disney', 0.88, 50.00, 17),
  ('Best Buy', 0.87, 50.00, 18),
  ('Nike', 0.87, 50.00, 19),
  ('Adidas', 0.87, 50.00, 20),
  ('Steam', 0.87, 50.00, 21),
  ('Nordstrom', 0.87, 50.00, 22),
  ('Verizon', 0.87, 50.00, 23),
  ('Razer Gold', 0.87, 50.00, 24),
  ('Hotels.com', 0.87, 50.00, 25),
  ('GameStop', 0.87, 50.00, 26),
  ('Delta Airline', 0.87, 50.00, 27),
  ('Saks 5th Ave', 0.87, 50.00, 28),
  ('Home Depot', 0.86, 50.00, 29),
  ('Lowe''s', 0.86, 50.00, 30),
  ('Sephora', 0.86, 50.00, 31),
  ('Ulta', 0.86, 50.00, 32),
  ('Macy', 0.86, 50.00, 33),
  ('Footlocker', 0.86, 50.00, 34),
  ('Dicks Sporting', 0.86, 50.00, 35),
  ('Uber', 0.86, 50.00, 36),
  ('Doordash', 0.86, 50.00, 37),
  ('InstaCart', 0.86, 50.00, 38),
  ('Ticketmaster', 0.86, 50.00, 39),
  ('One4All', 0.86, 50.00, 40),
  ('Kohls', 0.85, 50.00, 41),
  ('Gap', 0.85, 50.00, 42),
  ('Old Navy', 0.85, 50.00, 43),
  ('H&M', 0.85, 50.00, 44),
  ('CVS', 0.85, 50.00, 45),
  ('Belk', 0.85, 50.00, 46),
  ('Other', 0.85, 50.00, 1000);
--> statement-breakpoint
-- Customer messages that staff have since answered count as read; the rest are unread.
UPDATE chat_messages m SET is_read = true
  WHERE m.sender_type = 'user' AND NOT m.is_read AND EXISTS (
    SELECT 1 FROM chat_messages a
     WHERE a.user_id = m.user_id AND a.sender_type = 'admin' AND a.created_at >= m.created_at);
--> statement-breakpoint
UPDATE chat_conversations c SET unread_count = (
  SELECT count(*) FROM chat_messages m
   WHERE m.user_id = c.user_id AND m.sender_type = 'user' AND NOT m.is_read);
--> statement-breakpoint
-- A new message: as before, and a customer's unread message counts.
CREATE OR REPLACE FUNCTION chat_conversations_add() RETURNS trigger AS $$
BEGIN
  INSERT INTO chat_conversations AS c (user_id, last_message_id, last_message_at, last_sender_type,
      last_message, last_attachment_type, message_count, customer_message_count, unread_count)
    VALUES (NEW.user_id, NEW.id, NEW.created_at, NEW.sender_type, left(NEW.message, 200),
      NEW.attachment_type, 1, (NEW.sender_type = 'user')::int,
      (NEW.sender_type = 'user' AND NOT NEW.is_read)::int)
    ON CONFLICT (user_id) DO UPDATE SET
      message_count = c.message_count + 1,
      customer_message_count = c.customer_message_count + excluded.customer_message_count,
      unread_count = c.unread_count + excluded.unread_count,
      last_message_id = CASE WHEN (excluded.last_message_at, excluded.last_message_id) >= (c.last_message_at, c.last_message_id)
        THEN excluded.last_message_id ELSE c.last_message_id END,
      last_sender_type = CASE WHEN (excluded.last_message_at, excluded.last_message_id) >= (c.last_message_at, c.last_message_id)
        THEN excluded.last_sender_type ELSE c.last_sender_type END,
      last_message = CASE WHEN (excluded.last_message_at, excluded.last_message_id) >= (c.last_message_at, c.last_message_id)
        THEN excluded.last_message ELSE c.last_message END,
      last_attachment_type = CASE WHEN (excluded.last_message_at, excluded.last_message_id) >= (c.last_message_at, c.last_message_id)
        THEN excluded.last_attachment_type ELSE c.last_attachment_type END,
      last_message_at = GREATEST(c.last_message_at, excluded.last_message_at);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Deleted messages: the conversations they were in are rebuilt from what is left, unread included.
CREATE OR REPLACE FUNCTION chat_conversations_rebuild() RETURNS trigger AS $$
BEGIN
  DELETE FROM chat_conversations WHERE user_id IN (SELECT DISTINCT user_id FROM gone);
  INSERT INTO chat_conversations (user_id, last_message_id, last_message_at, last_sender_type,
      last_message, last_attachment_type, message_count, customer_message_count, unread_count)
    SELECT DISTINCT ON (m.user_id) m.user_id, m.id, m.created_at, m.sender_type, left(m.message, 200),
        m.attachment_type, count(*) OVER w, count(*) FILTER (WHERE m.sender_type = 'user') OVER w,
        count(*) FILTER (WHERE m.sender_type = 'user' AND NOT m.is_read) OVER w
      FROM chat_messages m
      WHERE m.user_id IN (SELECT DISTINCT user_id FROM gone)
      WINDOW w AS (PARTITION BY m.user_id)
      ORDER BY m.user_id, m.created_at DESC, m.id DESC;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Messages marked read (staff opened the thread): their conversations count again.
CREATE OR REPLACE FUNCTION chat_conversations_recount_unread() RETURNS trigger AS $$
BEGIN
  UPDATE chat_conversations c SET unread_count = (
    SELECT count(*) FROM chat_messages m
     WHERE m.user_id = c.user_id AND m.sender_type = 'user' AND NOT m.is_read)
   WHERE c.user_id IN (SELECT DISTINCT user_id FROM changed);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER chat_conversations_on_read
  AFTER UPDATE ON chat_messages
  REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION chat_conversations_recount_unread();
