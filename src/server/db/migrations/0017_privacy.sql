-- TOTP secrets are sealed with AES-256-GCM from now on (decision 074). SQL cannot seal: the clear
-- secrets already stored are sealed by the server at its start (sealClearTwoFactorSecrets, run
-- after the migrations; an update of each row only while it is still the clear value, so
-- instances starting together do it once) and by npm run keys:rotate.
ALTER TABLE "two_factor" ALTER COLUMN "secret" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "removed_reason" varchar(32);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_digests" boolean DEFAULT true NOT NULL;