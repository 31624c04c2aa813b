import { GENESIS_HASH } from '../../../audit/hash.js';

/**
 * The audit log's group commit on PostgreSQL in one statement (../core/audit-append.ts): take the
 * chain's lock, read the head, chain the batch and insert it, all on the server, so the lock is
 * held for no round trip at all. The hashes are those of src/core/audit/hash.ts: the client sends,
 * for each entry, the canonical JSON of its content cut around `seq`, and each hash is
 * `sha256(prev_hash || before || seq || after)` in hex. The client seals the same batch after the
 * returned head and checks that its last hash is the server's. The commit does not wait for the
 * disk (`synchronous_commit = off` for this transaction); a durable batch then waits for the flush
 * barrier (../audit-flush.ts). `p_unsure_*`: the last entry (and the size) of an earlier batch whose
 * commit may have gone through (the connection was cut during it): if a row among the newest holds
 * exactly that content, nothing is written, `already` is true and the head returned is the row
 * before that batch, so the client can tell its entries.
 */
export const AUDIT_APPEND_V4: readonly string[] = [
  `CREATE FUNCTION audit_append(
     p_ts text[], p_actor text[], p_front_end text[], p_tool text[], p_input text[],
     p_decision text[], p_event text[], p_approval_id text[], p_request_ids text[],
     p_outcome text[], p_error text[], p_duration_ms float8[], p_evidence text[],
     p_before text[], p_after text[],
     p_unsure_before text, p_unsure_after text, p_unsure_count int,
     OUT head_seq bigint, OUT head_hash text, OUT last_hash text, OUT already boolean)
   LANGUAGE plpgsql VOLATILE AS $$
   DECLARE
     seqs bigint[] := '{}';
     prevs text[] := '{}';
     hashes text[] := '{}';
     prev text;
     s bigint;
     found bigint;
   BEGIN
     PERFORM set_config('synchronous_commit', 'off', true);
     SELECT h.seq, h.hash INTO head_seq, head_hash FROM audit_lock_head() h;
     already := false;
     IF p_unsure_before IS NOT NULL THEN
       SELECT a.seq INTO found FROM audit_log a
        WHERE a.seq > head_seq - 50000
          AND a.hash = encode(sha256(convert_to(
                a.prev_hash || p_unsure_before || a.seq::text || p_unsure_after, 'UTF8')), 'hex')
        ORDER BY a.seq DESC LIMIT 1;
       IF found IS NOT NULL THEN
         already := true;
         head_seq := found - p_unsure_count;
         SELECT a.hash INTO head_hash FROM audit_log a WHERE a.seq = head_seq;
         head_hash := coalesce(head_hash, '${GENESIS_HASH}');
         RETURN;
       END IF;
     END IF;
     prev := head_hash;
     s := head_seq;
     FOR i IN 1 .. coalesce(cardinality(p_ts), 0) LOOP
       s := s + 1;
       seqs := seqs || s;
       prevs := prevs || prev;
       prev := encode(sha256(convert_to(prev || p_before[i] || s::text || p_after[i], 'UTF8')), 'hex');
       hashes := hashes || prev;
     END LOOP;
     last_hash := prev;
     INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, approval_id,
       request_ids, outcome, error, duration_ms, evidence, prev_hash, hash)
     SELECT * FROM unnest(seqs, p_ts, p_actor, p_front_end, p_tool, p_input, p_decision, p_event,
       p_approval_id, p_request_ids, p_outcome, p_error, p_duration_ms, p_evidence, prevs, hashes);
   END $$`,
];

/**
 * Version 7: the same, with each entry's policy version (`p_policy`, canonical JSON or NULL), hashed
 * by the client's `before`/`after` like every other field.
 */
export const AUDIT_APPEND_V7: readonly string[] = [
  `DROP FUNCTION audit_append(text[], text[], text[], text[], text[], text[], text[], text[], text[],
     text[], text[], float8[], text[], text[], text[], text, text, int)`,
  `CREATE FUNCTION audit_append(
     p_ts text[], p_actor text[], p_front_end text[], p_tool text[], p_input text[],
     p_decision text[], p_event text[], p_approval_id text[], p_request_ids text[],
     p_outcome text[], p_error text[], p_duration_ms float8[], p_evidence text[],
     p_before text[], p_after text[],
     p_unsure_before text, p_unsure_after text, p_unsure_count int, p_policy text[],
     OUT head_seq bigint, OUT head_hash text, OUT last_hash text, OUT already boolean)
   LANGUAGE plpgsql VOLATILE AS $$
   DECLARE
     seqs bigint[] := '{}';
     prevs text[] := '{}';
     hashes text[] := '{}';
     prev text;
     s bigint;
     found bigint;
   BEGIN
     PERFORM set_config('synchronous_commit', 'off', true);
     SELECT h.seq, h.hash INTO head_seq, head_hash FROM audit_lock_head() h;
     already := false;
     IF p_unsure_before IS NOT NULL THEN
       SELECT a.seq INTO found FROM audit_log a
        WHERE a.seq > head_seq - 50000
          AND a.hash = encode(sha256(convert_to(
                a.prev_hash || p_unsure_before || a.seq::text || p_unsure_after, 'UTF8')), 'hex')
        ORDER BY a.seq DESC LIMIT 1;
       IF found IS NOT NULL THEN
         already := true;
         head_seq := found - p_unsure_count;
         SELECT a.hash INTO head_hash FROM audit_log a WHERE a.seq = head_seq;
         head_hash := coalesce(head_hash, '${GENESIS_HASH}');
         RETURN;
       END IF;
     END IF;
     prev := head_hash;
     s := head_seq;
     FOR i IN 1 .. coalesce(cardinality(p_ts), 0) LOOP
       s := s + 1;
       seqs := seqs || s;
       prevs := prevs || prev;
       prev := encode(sha256(convert_to(prev || p_before[i] || s::text || p_after[i], 'UTF8')), 'hex');
       hashes := hashes || prev;
     END LOOP;
     last_hash := prev;
     INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, approval_id,
       request_ids, outcome, error, duration_ms, evidence, policy, prev_hash, hash)
     SELECT * FROM unnest(seqs, p_ts, p_actor, p_front_end, p_tool, p_input, p_decision, p_event,
       p_approval_id, p_request_ids, p_outcome, p_error, p_duration_ms, p_evidence, p_policy, prevs, hashes);
   END $$`,
];
