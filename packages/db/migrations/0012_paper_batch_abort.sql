-- The paper exchange writes a batch of many users' orders, balance moves and ledger rows as ONE statement
-- (apps/server/src/modules/paper/paper-batch.ts). When any part of it would be wrong (an order id already
-- used, an order no longer in the expected status, a balance below zero) the statement calls this function,
-- which aborts it, and with it every write of the batch. VOLATILE: never evaluated at planning time.
CREATE OR REPLACE FUNCTION "paper_batch_abort"() RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'paper batch: a change must be applied alone' USING ERRCODE = 'P0001';
END
$$;
