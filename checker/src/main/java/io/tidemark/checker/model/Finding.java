package io.tidemark.checker.model;

import java.time.Instant;

/**
 * Something the pipeline did that the rules did not allow, or did not do that they asked for.
 *
 * @param at     when it happened (a wrongful delete) or when the grace period ran out (a lost expiration)
 * @param rule   the rule concerned, when one is known
 * @param detail what the oracle saw, in a sentence
 */
public record Finding(Kind kind, String bucket, String key, String versionId, String rule, Instant at,
                      String detail) {

    public enum Kind {
        /** A version deleted, or hidden by a lifecycle delete marker, while no rule made it due. */
        WRONGFUL_DELETE,
        /** A version due and unprotected for longer than the grace period, still there at the end. */
        LOST_EXPIRATION
    }
}
