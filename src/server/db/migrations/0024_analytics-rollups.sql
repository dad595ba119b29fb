CREATE TABLE "analytics_cards_daily" (
	"day" date NOT NULL,
	"card_type" varchar(120) NOT NULL,
	"submitted" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"value" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_staff_daily" (
	"day" date NOT NULL,
	"staff_id" uuid NOT NULL,
	"email" varchar(254) NOT NULL,
	"decisions" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_waits" (
	"day" date NOT NULL,
	"kind" varchar(16) NOT NULL,
	"minutes" integer NOT NULL,
	"cards" integer DEFAULT 0 NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
DROP INDEX "audit_log_type_created_idx";--> statement-breakpoint
CREATE INDEX "analytics_cards_daily_day_idx" ON "analytics_cards_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "analytics_cards_daily_unfolded_idx" ON "analytics_cards_daily" USING btree ("day") WHERE not "analytics_cards_daily"."folded";--> statement-breakpoint
CREATE INDEX "analytics_staff_daily_day_idx" ON "analytics_staff_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "analytics_staff_daily_unfolded_idx" ON "analytics_staff_daily" USING btree ("day") WHERE not "analytics_staff_daily"."folded";--> statement-breakpoint
CREATE INDEX "analytics_waits_day_idx" ON "analytics_waits" USING btree ("day");--> statement-breakpoint
CREATE INDEX "analytics_waits_unfolded_idx" ON "analytics_waits" USING btree ("day") WHERE not "analytics_waits"."folded";--> statement-breakpoint
-- A wait in whole minutes, as the Analytics tab shows it: to the minute up to 48 hours, then to
-- the hour (the tab says "2 d 4 h" from there). It bounds each day's histogram.
CREATE FUNCTION analytics_minutes_waited(since timestamptz, until timestamptz) RETURNS integer
  IMMUTABLE LANGUAGE sql AS $$
  SELECT CASE WHEN m >= 2880 THEN m - m % 60 ELSE m END
    FROM (SELECT floor(extract(epoch FROM until - since) / 60)::int AS m) w
$$;
--> statement-breakpoint
-- The rollups follow the rows (decision 085). A statement trigger sees what one statement
-- changed (its transition tables): each old row counts -1, each new row +1. It appends the sums
-- per key as new rows, never updating one, so writers never wait on each other or deadlock over
-- a rollup row. An UPDATE that changes none of the counted columns (claims, checks, notes) costs
-- one look at its transition tables.
CREATE FUNCTION analytics_transactions_changed() RETURNS trigger AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows' END;
  counted boolean;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id)
      WHERE (o.created_at, o.card_type, o.status, o.card_value, o.paid_at, o.payment_status,
             o.payment_amount, o.expected_payout, o.first_decision_at)
            IS DISTINCT FROM
            (n.created_at, n.card_type, n.status, n.card_value, n.paid_at, n.payment_status,
             n.payment_amount, n.expected_payout, n.first_decision_at))' INTO counted;
    IF NOT counted THEN
      RETURN NULL;
    END IF;
  END IF;
  EXECUTE format($sql$
    WITH changes AS (%s)
    INSERT INTO analytics_cards_daily (day, card_type, submitted, approved, rejected, value, paid)
    SELECT day, card_type, sum(submitted), sum(approved), sum(rejected), sum(value), sum(paid)
      FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, card_type, sign AS submitted,
                   CASE WHEN status IN ('processing', 'completed') THEN sign ELSE 0 END AS approved,
                   CASE WHEN status = 'rejected' THEN sign ELSE 0 END AS rejected,
                   sign * card_value AS value, 0 AS paid
              FROM changes
            UNION ALL
            SELECT (paid_at AT TIME ZONE 'UTC')::date, card_type, 0, 0, 0, 0,
                   sign * coalesce(payment_amount, expected_payout)
              FROM changes
             WHERE paid_at IS NOT NULL AND payment_status IN ('sent', 'confirmed')) d
     GROUP BY day, card_type
    HAVING sum(submitted) <> 0 OR sum(approved) <> 0 OR sum(rejected) <> 0
        OR sum(value) <> 0 OR sum(paid) <> 0$sql$, changes);
  EXECUTE format($sql$
    WITH changes AS (%s)
    INSERT INTO analytics_waits (day, kind, minutes, cards)
    SELECT day, kind, minutes, sum(sign)
      FROM (SELECT (first_decision_at AT TIME ZONE 'UTC')::date AS day, 'decision' AS kind,
                   analytics_minutes_waited(created_at, first_decision_at) AS minutes, sign
              FROM changes WHERE first_decision_at IS NOT NULL
            UNION ALL
            SELECT (paid_at AT TIME ZONE 'UTC')::date, 'payment',
                   analytics_minutes_waited(created_at, paid_at), sign
              FROM changes
             WHERE paid_at IS NOT NULL AND payment_status IN ('sent', 'confirmed')) d
     GROUP BY day, kind, minutes
    HAVING sum(sign) <> 0$sql$, changes);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER transactions_analytics_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_transactions_changed();
--> statement-breakpoint
CREATE TRIGGER transactions_analytics_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_transactions_changed();
--> statement-breakpoint
CREATE TRIGGER transactions_analytics_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_transactions_changed();
--> statement-breakpoint
-- A staff decision is an audit row that sets a card's status to approved or rejected. The audit
-- log is append-only, so an INSERT trigger is all it takes.
CREATE FUNCTION analytics_audit_appended() RETURNS trigger AS $$
BEGIN
  INSERT INTO analytics_staff_daily (day, staff_id, email, decisions, approved, rejected)
  SELECT (created_at AT TIME ZONE 'UTC')::date, actor_id, max(actor_email), count(*),
         count(*) FILTER (WHERE changes->'status'->>'to' IN ('processing', 'completed')),
         count(*) FILTER (WHERE changes->'status'->>'to' = 'rejected')
    FROM new_rows
   WHERE entity_type = 'transaction' AND actor_kind = 'admin' AND action = 'update'
     AND changes->'status'->>'to' IN ('processing', 'completed', 'rejected')
   GROUP BY 1, 2;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_analytics AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_audit_appended();
--> statement-breakpoint
-- What was there before the triggers is counted by the same functions: the rows pass once
-- through a temporary copy of each table that carries the same trigger.
CREATE TEMPORARY TABLE analytics_backfill_cards (LIKE transactions);
--> statement-breakpoint
CREATE TRIGGER analytics_backfill_cards AFTER INSERT ON analytics_backfill_cards
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_transactions_changed();
--> statement-breakpoint
INSERT INTO analytics_backfill_cards SELECT * FROM transactions;
--> statement-breakpoint
DROP TABLE analytics_backfill_cards;
--> statement-breakpoint
CREATE TEMPORARY TABLE analytics_backfill_audit (LIKE audit_log);
--> statement-breakpoint
CREATE TRIGGER analytics_backfill_audit AFTER INSERT ON analytics_backfill_audit
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_audit_appended();
--> statement-breakpoint
INSERT INTO analytics_backfill_audit SELECT * FROM audit_log;
--> statement-breakpoint
DROP TABLE analytics_backfill_audit;
