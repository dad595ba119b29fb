CREATE TABLE "chat_conversations" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"last_message_id" uuid NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"last_sender_type" varchar(16) NOT NULL,
	"last_message" text NOT NULL,
	"last_attachment_type" varchar(16),
	"message_count" integer NOT NULL,
	"customer_message_count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_conversations_last_idx" ON "chat_conversations" USING btree ("last_message_at","user_id");--> statement-breakpoint
CREATE INDEX "support_tickets_created_idx" ON "support_tickets" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "support_tickets_status_created_idx" ON "support_tickets" USING btree ("status","created_at","id");--> statement-breakpoint
-- A new message updates its customer's conversation row in the same transaction.
CREATE OR REPLACE FUNCTION chat_conversations_add() RETURNS trigger AS $$
BEGIN
  INSERT INTO chat_conversations AS c (user_id, last_message_id, last_message_at, last_sender_type,
      last_message, last_attachment_type, message_count, customer_message_count)
    VALUES (NEW.user_id, NEW.id, NEW.created_at, NEW.sender_type, left(NEW.message, 200),
      NEW.attachment_type, 1, (NEW.sender_type = 'user')::int)
    ON CONFLICT (user_id) DO UPDATE SET
      message_count = c.message_count + 1,
      customer_message_count = c.customer_message_count + excluded.customer_message_count,
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
CREATE TRIGGER chat_conversations_on_insert
  AFTER INSERT ON chat_messages
  FOR EACH ROW EXECUTE FUNCTION chat_conversations_add();
--> statement-breakpoint
-- Deleted messages (clearing chats): the conversations they were in are rebuilt from what is left.
CREATE OR REPLACE FUNCTION chat_conversations_rebuild() RETURNS trigger AS $$
BEGIN
  DELETE FROM chat_conversations WHERE user_id IN (SELECT DISTINCT user_id FROM gone);
  INSERT INTO chat_conversations (user_id, last_message_id, last_message_at, last_sender_type,
      last_message, last_attachment_type, message_count, customer_message_count)
    SELECT DISTINCT ON (m.user_id) m.user_id, m.id, m.created_at, m.sender_type, left(m.message, 200),
        m.attachment_type, count(*) OVER w, count(*) FILTER (WHERE m.sender_type = 'user') OVER w
      FROM chat_messages m
      WHERE m.user_id IN (SELECT DISTINCT user_id FROM gone)
      WINDOW w AS (PARTITION BY m.user_id)
      ORDER BY m.user_id, m.created_at DESC, m.id DESC;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER chat_conversations_on_delete
  AFTER DELETE ON chat_messages
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION chat_conversations_rebuild();
--> statement-breakpoint
-- The conversations that already exist.
INSERT INTO chat_conversations (user_id, last_message_id, last_message_at, last_sender_type,
    last_message, last_attachment_type, message_count, customer_message_count)
  SELECT DISTINCT ON (m.user_id) m.user_id, m.id, m.created_at, m.sender_type, left(m.message, 200),
      m.attachment_type, count(*) OVER w, count(*) FILTER (WHERE m.sender_type = 'user') OVER w
    FROM chat_messages m
    WINDOW w AS (PARTITION BY m.user_id)
    ORDER BY m.user_id, m.created_at DESC, m.id DESC;
