ALTER TABLE "verification_submissions" ADD COLUMN "region" varchar(100);
