-- Superseded before release by 0005 (search-key columns); kept so the migration history is whole.
SELECT 1;
