package io.tidemark.populator;

/**
 * A registry write was refused because the leader node it was fenced by no longer exists: this instance's
 * ZooKeeper session expired or it left the election, and a successor may already be writing. Nothing was written;
 * the term ends without committing.
 */
public final class LeadershipLostException extends Exception {

    public LeadershipLostException(String leaderNode) {
        super("the populator's leader node " + leaderNode + " is gone: registry write refused");
    }
}
