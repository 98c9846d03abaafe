-- Customers' pages keep a tenth free (fillfactor 90) so that an update touching no indexed column
-- (a bounce's `email_bounced_at`, a complaint's or an unsubscribe's `email_status`, consent and
-- contact changes) is a heap-only tuple: written on the same page, with no new entry in any of
-- the table's eleven indexes. Packed full, 95% of the bounces and complaints applied under issue
-- 25's bench moved their row and wrote all eleven index entries again. Pages written from now on
-- keep the room; pages already full gain it as their rows move or are vacuumed.
ALTER TABLE customers SET (fillfactor = 90);
