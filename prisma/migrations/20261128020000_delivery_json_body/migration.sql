-- Issue #20: the `payload` filter of a delivery listing (jsonb `@>` over the JSON body). The body is stored once, as
-- bytes (issue #19), and is not indexed: an index or a jsonb copy would cost every ingest. A listing page parses the
-- bodies of a bounded window of deliveries instead (lib/inbox/deliveries.ts), and this parse must not fail the page:
-- bytes that are not UTF-8, or not JSON jsonb takes (`\u0000`, nesting past the stack), are NULL, not an error. The
-- handler's subtransaction assigns no transaction id (a read), so it costs microseconds and nothing shared.
CREATE FUNCTION "delivery_json_body"("body" BYTEA) RETURNS JSONB
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN convert_from("body", 'UTF8')::jsonb;
EXCEPTION WHEN data_exception OR program_limit_exceeded THEN
  RETURN NULL;
END
$$;
