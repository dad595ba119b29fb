-- A new account alone is information, not a flag (issue 24, item 7): earlier checks say so, and a
-- card flagged by nothing else is no longer flagged.
UPDATE "validation_logs" SET "status" = 'info'
  WHERE "validation_type" = 'new_account' AND "status" = 'flagged';
--> statement-breakpoint
UPDATE "transactions" t SET "validation_status" = 'passed'
  WHERE t."validation_status" = 'flagged'
    AND NOT EXISTS (
      SELECT 1 FROM "validation_logs" v WHERE v."transaction_id" = t."id" AND v."status" = 'flagged'
    );
