package io.tidemark.populator;

import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumeration of every bucket a term makes when there is no checkpoint (a cold start) or after a meta-log gap:
 * it lists every bucket, seeds the registry and configs and asks for a recovery walk of each lifecycle bucket, a
 * chunk per transaction, each committed with a checkpoint naming the last bucket listed. No transaction has to
 * outlast the whole listing, and an enumeration cut short resumes after its last chunk. Buckets known from committed
 * configs that the listing did not show (this term's) are looked up, so one enumerated before an interruption is
 * kept and one that is gone is removed. The subscription begins where the first chunk said (the listing's start less
 * the overlap), so it covers everything that changes during and after the listing.
 */
final class ColdStart {

    private static final Logger log = LoggerFactory.getLogger(ColdStart.class);
    private static final int LIST_PAGE = 1_000;

    private final PopulatorSettings settings;
    private final FilerClient filer;
    private final String bucketsDirectory;
    private final TransactionalPublisher publisher;
    private final BucketChanges buckets;
    private final TermAborts aborts;
    private final BooleanSupplier leading;
    private final PopulatorMetrics metrics;

    ColdStart(PopulatorSettings settings, FilerClient filer, String bucketsDirectory, TransactionalPublisher publisher,
              BucketChanges buckets, TermAborts aborts, BooleanSupplier leading, PopulatorMetrics metrics) {
        this.settings = settings;
        this.filer = filer;
        this.bucketsDirectory = bucketsDirectory;
        this.publisher = publisher;
        this.buckets = buckets;
        this.aborts = aborts;
        this.leading = leading;
        this.metrics = metrics;
    }

    /** Enumerates from {@code from}'s cursor; empty when leadership ended on the way (nothing more was committed). */
    Optional<PopulatorCheckpoint> enumerate(PopulatorCheckpoint from) throws Exception {
        long began = System.nanoTime();
        // A gap's enumeration asks for a recovery walk of every lifecycle bucket, changed or not.
        boolean walkAll = from.walkingAll();
        long generation = walkAll ? from.walkAllNs() : from.coldStartNs();
        long chunkTime = settings.coldStartChunkTime().toNanos();
        Set<String> seen = new HashSet<>();
        String cursor = from.coldStartCursor();
        Iterator<Entry> listing = filer.listAll(bucketsDirectory, "", cursor, LIST_PAGE).iterator();
        Iterator<String> unseen = null;
        PopulatorCheckpoint checkpoint = from;
        int enumerated = 0;
        while (true) {
            publisher.begin();
            try {
                long chunkBegan = System.nanoTime();
                int inChunk = 0;
                int chunkBuckets = 0;
                while (inChunk < settings.coldStartChunk() && System.nanoTime() - chunkBegan < chunkTime) {
                    if (unseen == null && !listing.hasNext()) {
                        unseen = buckets.known().stream().filter(b -> !seen.contains(b)).sorted().iterator();
                    }
                    if (unseen == null) {
                        Entry bucket = listing.next();
                        cursor = bucket.getName();
                        inChunk++;
                        if (bucket.getIsDirectory()) {
                            seen.add(bucket.getName());
                            boolean walked = buckets.apply(bucket.getName(), bucket, generation, true);
                            if (walkAll && !walked) {
                                buckets.recoveryWalk(bucket.getName(), generation);
                            }
                            chunkBuckets++;
                        }
                    } else if (unseen.hasNext()) {
                        String bucket = unseen.next();
                        inChunk++;
                        Optional<Optional<Entry>> now = buckets.lookUp(bucket);
                        if (now.isPresent()) {
                            boolean walked = buckets.apply(bucket, now.get().orElse(null), generation, true);
                            // Up to the cursor, an earlier term of this enumeration asked for its walk already.
                            if (walkAll && !walked && bucket.compareTo(from.coldStartCursor()) > 0) {
                                buckets.recoveryWalk(bucket, generation);
                            }
                        }
                    } else {
                        break;
                    }
                }
                boolean complete = unseen != null && !unseen.hasNext();
                if (!buckets.writeRegistry() || !leading.getAsBoolean()) {
                    aborts.leadershipEnded();
                    return Optional.empty();
                }
                checkpoint = checkpoint.enumeratedTo(complete ? null : cursor);
                publisher.commit(checkpoint);
                enumerated += chunkBuckets;
                metrics.coldStartBuckets(chunkBuckets);
                double seconds = Math.max(1e-3, (System.nanoTime() - began) / 1e9);
                if (complete && walkAll) {
                    log.info("meta-log gap: {} buckets enumerated in this term ({} buckets/s); a recovery walk "
                            + "asked for each of the {} with valid lifecycle rules", enumerated,
                            Math.round(enumerated / seconds), buckets.configured() - buckets.invalid());
                    return Optional.of(checkpoint);
                }
                if (complete) {
                    log.info("cold start: {} buckets enumerated in this term ({} buckets/s), {} with lifecycle "
                                    + "configuration ({} invalid); subscribing from ts_ns {}", enumerated,
                            Math.round(enumerated / seconds), buckets.configured(), buckets.invalid(),
                            checkpoint.tsNs());
                    return Optional.of(checkpoint);
                }
                log.info("cold start: {} buckets enumerated and committed, up to \"{}\" ({} buckets/s)", enumerated,
                        cursor, Math.round(enumerated / seconds));
            } catch (Exception e) {
                throw aborts.afterError(e);
            }
        }
    }
}
