package io.tidemark.zookeeper;

import java.time.Instant;

/**
 * One pause or dry run an operator set, the value of its node under {@link ZooKeeperPaths#CONTROL}: who set it, when
 * and why, so that {@code tidemark status} can say more than "paused".
 *
 * @param since  when it was set
 * @param by     who set it ({@code user@host} of the command)
 * @param reason what the operator said, or null
 */
public record ControlFlag(Instant since, String by, String reason) {

    /** "since T by B[: reason]", as the conductor, {@code tidemark status} and the logs say it. */
    public String describe() {
        return "since " + since + " by " + by + (reason == null ? "" : ": " + reason);
    }
}
