ALTER TABLE "chat_messages" ADD COLUMN "sender_name" varchar(200);--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "conversation_user_id" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_conversation_user_id_users_id_fk" FOREIGN KEY ("conversation_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;