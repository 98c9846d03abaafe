-- The unsubscribed message per language (issue 27): the existing column is the Japanese one; the
-- English one is optional, and English pages show the Japanese message when no host sets it.
ALTER TABLE "campaign_email_settings" ADD COLUMN "unsubscribed_message_en" text;
