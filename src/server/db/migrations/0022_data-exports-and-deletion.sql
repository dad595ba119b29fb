CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"object_key" varchar(200),
	"size" bigint,
	"started_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_user_created_idx" ON "data_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_exports_status_idx" ON "data_exports" USING btree ("status","created_at");--> statement-breakpoint
-- The audit log stays append-only, with one exception (decision 083): when a customer's account is
-- erased, the rows they are the actor of get the account's anonymous address in place of their
-- email. Nothing else of any row may change, and no row may be deleted.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.actor_kind = 'user'
     AND NEW.actor_email = 'deleted-' || OLD.actor_id::text || '@invalid'
     AND (NEW.id, NEW.entity_type, NEW.entity_id, NEW.actor_kind, NEW.actor_id, NEW.action,
          NEW.changes, NEW.created_at)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.entity_type, OLD.entity_id, OLD.actor_kind, OLD.actor_id, OLD.action,
          OLD.changes, OLD.created_at)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
