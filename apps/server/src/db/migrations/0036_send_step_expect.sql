-- What a statement sent ahead of its answers (a pipeline: docs/architecture.md, "The send's
-- commit") expects of the rows it touched: false aborts the whole transaction with SQLSTATE YD001,
-- so the caller takes its careful path instead, and nothing of the optimistic one is kept.
CREATE FUNCTION yado_expect(ok boolean, what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION 'expectation not met: %', what USING ERRCODE = 'YD001';
  END IF;
  RETURN true;
END
$$;
