package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.Optional;

/**
 * What a walk does with each object version and multipart upload it meets, in walk order. The bucket processor's
 * answer is {@link WalkDecisions} (tasks and re-arm records); {@code tidemark lifecycle what-if} counts instead. One
 * walker serves both, so a report of what rules would do sees the bucket exactly as the walks that act on it do:
 * the same ranks, successor times, null versions and layout anomalies.
 */
public interface WalkVisitor {

    /**
     * @param directory   the entry's directory (full filer path)
     * @param entry       the entry as listed
     * @param version     the version as the rules see it, with its rank and successor time where the walk knows them
     * @param role        what the entry is to its key: current or noncurrent
     * @param asOneEvent  the version as replay-streams sees it from a single event (no rank, its own stamp), for
     *                    noncurrent versions; empty otherwise
     */
    void version(String directory, Entry entry, ObjectVersion version, RearmRole role, Optional<ObjectVersion> asOneEvent);

    /**
     * @param directory      the {@code .uploads} directory (full filer path)
     * @param entry          the upload's directory entry
     * @param destinationKey the key the upload will create
     */
    void upload(String directory, Entry entry, String destinationKey);
}
