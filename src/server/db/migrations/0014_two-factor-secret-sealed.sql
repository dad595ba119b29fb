-- TOTP secrets are sealed with AES-256-GCM from now on (decision 074). SQL cannot seal: the clear
-- secrets already stored are sealed by the server at its start (sealClearTwoFactorSecrets, run
-- after the migrations; an update of each row only while it is still the clear value, so
-- instances starting together do it once) and by npm run keys:rotate.
ALTER TABLE "two_factor" ALTER COLUMN "secret" SET DATA TYPE text;