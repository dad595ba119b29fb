CREATE TABLE "clawbacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"reason" varchar(32) NOT NULL,
	"note" varchar(2000),
	"status" varchar(16) DEFAULT 'open' NOT NULL,
	"created_by_id" uuid NOT NULL,
	"write_off_note" varchar(2000),
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_account_days" (
	"day" date NOT NULL,
	"account" varchar(64) NOT NULL,
	"debits" bigint DEFAULT 0 NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" varchar(32) NOT NULL,
	"transaction_id" uuid,
	"clawback_id" uuid,
	"user_id" uuid,
	"actor_kind" varchar(16) NOT NULL,
	"actor_id" uuid NOT NULL,
	"actor_email" varchar(254) NOT NULL,
	"memo" varchar(500) NOT NULL,
	"idempotency_key" varchar(200) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_seq_unique" UNIQUE("seq"),
	CONSTRAINT "ledger_entries_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"account" varchar(64) NOT NULL,
	"user_id" uuid,
	"amount" bigint NOT NULL,
	"kind" varchar(32) NOT NULL,
	CONSTRAINT "ledger_postings_amount_not_zero" CHECK ("ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "reconciliation_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"statement_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"reference" varchar(200) NOT NULL,
	"payee" varchar(200)
);
--> statement-breakpoint
CREATE TABLE "reconciliation_matches" (
	"transaction_id" uuid PRIMARY KEY NOT NULL,
	"line_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_type" varchar(32) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"object_path" text NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"lines" integer NOT NULL,
	"matched" integer NOT NULL,
	"first_date" date,
	"last_date" date,
	"uploaded_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clawbacks" ADD CONSTRAINT "clawbacks_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clawbacks" ADD CONSTRAINT "clawbacks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD CONSTRAINT "reconciliation_lines_statement_id_reconciliation_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."reconciliation_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD CONSTRAINT "reconciliation_matches_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD CONSTRAINT "reconciliation_matches_line_id_reconciliation_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."reconciliation_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clawbacks_transaction_idx" ON "clawbacks" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "clawbacks_user_open_idx" ON "clawbacks" USING btree ("user_id","created_at") WHERE "clawbacks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "ledger_account_days_day_idx" ON "ledger_account_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "ledger_account_days_unfolded_idx" ON "ledger_account_days" USING btree ("day") WHERE not "ledger_account_days"."folded";--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_seq_idx" ON "ledger_entries" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_clawback_idx" ON "ledger_entries" USING btree ("clawback_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_at_idx" ON "ledger_entries" USING btree ("at");--> statement-breakpoint
CREATE INDEX "ledger_postings_entry_idx" ON "ledger_postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_user_idx" ON "ledger_postings" USING btree ("user_id","account","kind","amount") WHERE "ledger_postings"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "reconciliation_lines_statement_idx" ON "reconciliation_lines" USING btree ("statement_id","line_no");--> statement-breakpoint
CREATE INDEX "reconciliation_matches_line_idx" ON "reconciliation_matches" USING btree ("line_id");--> statement-breakpoint
-- Every entry balances (decision 093): checked at commit, after all its postings are in, by a
-- deferred constraint trigger; an entry needs two postings at least, and they sum to zero.
CREATE FUNCTION ledger_entry_balances(entry uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
  postings integer;
BEGIN
  SELECT coalesce(sum(amount), 0), count(*) INTO total, postings
    FROM ledger_postings WHERE entry_id = entry;
  IF postings < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'ledger entry % does not balance: % postings summing to %', entry, postings, total
      USING ERRCODE = 'check_violation';
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION ledger_posting_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_balances(NEW.entry_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION ledger_entry_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_entry_balances(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balance AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_posting_added();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balance AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_added();
--> statement-breakpoint
-- Append-only: a mistake is corrected by a reversing entry, never an edit. Statement triggers, so
-- even an UPDATE or DELETE that matches no row is refused.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the books are append-only: % on % is refused; post a reversing entry', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
-- Debits and credits per account and day, appended as postings are (decision 085's rollups).
CREATE FUNCTION ledger_postings_rolled_up() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_account_days (day, account, debits, credits)
  SELECT (e.at AT TIME ZONE 'UTC')::date, p.account,
         sum(greatest(p.amount, 0)), sum(greatest(-p.amount, 0))
    FROM new_rows p JOIN ledger_entries e ON e.id = p.entry_id
   GROUP BY 1, 2;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_rolled_up AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_postings_rolled_up();
--> statement-breakpoint
-- What each card implies for the books, in cents (decision 093): a paid card (sent or confirmed)
-- credited and paid its payment amount; an approved card waiting for payment, and not for a
-- revised offer's answer, credits what it will pay (staff's amount, else the quote); anything
-- else, nothing. The same rules as impliedByCard (src/server/modules/ledger/cards.ts); the opening
-- books below and `npm run ledger:check` read them here.
CREATE VIEW ledger_card_money AS
SELECT t.id, t.user_id,
       CASE WHEN t.payment_status IN ('sent', 'confirmed')
            THEN (coalesce(t.payment_amount, 0) * 100)::bigint
            WHEN t.status IN ('processing', 'completed') AND t.payment_status = 'pending'
                 AND t.offer_status IS DISTINCT FROM 'pending'
            THEN (coalesce(t.payment_amount, t.expected_payout) * 100)::bigint
            ELSE 0 END AS credited,
       CASE WHEN t.payment_status IN ('sent', 'confirmed')
            THEN (coalesce(t.payment_amount, 0) * 100)::bigint ELSE 0 END AS paid
  FROM transactions t;
--> statement-breakpoint
-- The opening books (issue 39): what the cards that have no entry yet imply, in the order it
-- happened. An approved card credits its seller (approved at its first decision); a paid card is
-- also paid out through its payment method (when it was paid). Worded as the app words its own
-- entries. This migration runs it once for today's cards; a seed that writes cards with SQL
-- (the benchmarks) runs it after. Answers the number of entries posted.
CREATE FUNCTION ledger_open_books() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  posted bigint;
BEGIN
  CREATE TEMPORARY TABLE ledger_opening ON COMMIT DROP AS
  WITH cards AS (
    SELECT t.id, t.user_id, t.card_type, t.card_value, t.updated_at, t.first_decision_at,
           t.paid_at, m.type AS method_type,
           coalesce(left(m.identifier, 4) || '…', '••••' || right(m.account_number, 4)) AS payee,
           c.credited, c.paid
      FROM transactions t
      JOIN ledger_card_money c ON c.id = t.id
      LEFT JOIN payment_methods m ON m.id = t.payment_method_id
     WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transaction_id = t.id)
  )
  SELECT gen_random_uuid() AS id, 1 AS step, id AS transaction_id, user_id, credited AS amount,
         coalesce(first_decision_at, updated_at) AS at, 'card_approved' AS kind,
         'Card ' || card_type || ' $' || to_char(card_value, 'FM999,999,990.00') || ' approved'
           AS memo,
         'cards_bought' AS account
    FROM cards WHERE credited > 0
  UNION ALL
  SELECT gen_random_uuid(), 2, id, user_id, paid, coalesce(paid_at, updated_at), 'payment_sent',
         'Paid to ' || CASE method_type
           WHEN 'cash_app' THEN 'Cash App' WHEN 'paypal' THEN 'PayPal' WHEN 'chime' THEN 'Chime'
           WHEN 'sofi' THEN 'SoFi' WHEN 'revolut' THEN 'Revolut'
           WHEN 'bank_transfer' THEN 'Bank Transfer' WHEN 'usdt_bep20' THEN 'USDT (BEP20)'
           WHEN 'usdt_trc20' THEN 'USDT (TRC20)' ELSE coalesce(method_type, 'no payment method') END
           || coalesce(' ' || payee, ''),
         'paid_out:' || coalesce(method_type, 'none')
    FROM cards WHERE paid > 0;
  INSERT INTO ledger_entries (id, at, kind, transaction_id, user_id, actor_kind, actor_id,
                              actor_email, memo, idempotency_key)
  SELECT id, at, kind, transaction_id, user_id, 'system', '00000000-0000-0000-0000-000000000000',
         'system', memo, 'card:' || transaction_id || ':' || step
    FROM ledger_opening ORDER BY at, transaction_id, step;
  INSERT INTO ledger_postings (entry_id, account, user_id, amount, kind)
  SELECT id, account, NULL, CASE WHEN step = 1 THEN amount ELSE -amount END, kind
    FROM ledger_opening
  UNION ALL
  SELECT id, 'seller_payable', user_id, CASE WHEN step = 1 THEN -amount ELSE amount END, kind
    FROM ledger_opening;
  SELECT count(*) INTO posted FROM ledger_opening;
  DROP TABLE ledger_opening;
  RETURN posted;
END $$;
--> statement-breakpoint
SELECT ledger_open_books();
