-- A campaign taken back to draft kept its due instant (`send_at`), so the campaign list showed it
-- with a send time as if it were scheduled. A draft is never due: its schedule is only planned
-- (the editor keeps the time typed, campaign-operations.ts `plannedSchedule`), and taking one back
-- now clears `send_at`; the drafts taken back before are cleared here.
UPDATE campaigns SET send_at = NULL WHERE status = 'draft' AND send_at IS NOT NULL;
