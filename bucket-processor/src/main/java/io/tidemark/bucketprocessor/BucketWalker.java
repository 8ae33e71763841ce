package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.BucketTask.VersionsCursor;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.S3Versions;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks one page of a bucket in the S3 layout: depth first in name order, starting after the task's marker, until
 * about a page of entries has been handled, and says where the next page starts.
 *
 * <p>Each directory is listed in pieces sized to what is left of the page (estimated from what its entries cost so
 * far, subdirectories included), so an entry is listed once in the walk; what a piece listed beyond the page's end
 * is listed again by the next page, and counted. Memory holds one page of entries, whatever the bucket's size.
 *
 * <p>A {@code .versions} directory of a versioned bucket is one key: its versions are listed whole, in one page
 * whatever the page size, and evaluated together, newest first, with the key's latest pointer, ranks and successor
 * times. A rank is never carried from one page to the next: a version deleted in between would leave the older ones
 * with ranks too high, and a rank is what nothing downstream can check (the object processor counts it again from a
 * fresh listing before a rank-based delete). Where the order cannot be trusted, ranks and successors count as
 * unknown, which never makes anything due early. Multipart uploads under {@code .uploads} are evaluated as uploads
 * and their parts never listed. A walk of one prefix (a key) lists, on the prefix's path, only the names that can
 * lead to it.
 */
final class BucketWalker {

    private static final Logger log = LoggerFactory.getLogger(BucketWalker.class);
    /**
     * The first piece of a directory in a page: one entry, whose cost (itself plus anything under it) sizes the
     * next piece. A larger guess would, in a directory of large subdirectories, list siblings the page never
     * reaches.
     */
    private static final int FIRST_PIECE = 1;
    /** How many versions one ListEntries call of a whole {@code .versions} directory asks for. */
    private static final int VERSIONS_LISTING = 1_000;

    private final EntryLister lister;
    private final ShardFunction shards;
    private final int pageSize;

    BucketWalker(EntryLister lister, ShardFunction shards, int pageSize) {
        this.lister = lister;
        this.shards = shards;
        this.pageSize = pageSize;
    }

    /** A walker whose pages only go to a {@link WalkVisitor}: it builds no tasks, so it needs no shards. */
    BucketWalker(EntryLister lister, int pageSize) {
        this(lister, null, pageSize);
    }

    /** Where a page ended: the next task's marker and versions cursor, or finished. */
    record Position(String marker, VersionsCursor versions) {
    }

    record Result(PageOutput output, Optional<Position> next) {
    }

    Result walk(String bucketDirectory, String bucket, BucketTask.Details task, WalkRules rules, Instant now) {
        PageOutput out = new PageOutput();
        return walk(bucketDirectory, bucket, task, rules.versioning(),
                new WalkDecisions(bucket, task, rules, shards, now, out), out);
    }

    /** One page handed to {@code visitor} instead of the walk's decisions; what it saw is counted in {@code out}. */
    Result walk(String bucketDirectory, String bucket, BucketTask.Details task, BucketVersioning versioning,
                WalkVisitor visitor, PageOutput out) {
        return new Result(out, new Page(bucketDirectory, bucket, task, versioning, visitor, out).run());
    }

    private enum FrameKind { PLAIN, UPLOADS, VERSIONS }

    /** One directory on the way down: where its listing stands and what was listed but not handled yet. */
    private static final class Frame {
        final String dir;
        final String relDir;
        final FrameKind kind;
        final VersionGroup group;
        final Deque<Entry> buffer = new ArrayDeque<>();
        String lastName;
        boolean exhausted;
        long taken;
        long handledAtStart;

        Frame(String dir, String relDir, FrameKind kind, String lastName, VersionGroup group, long handledNow) {
            this.dir = dir;
            this.relDir = relDir;
            this.kind = kind;
            this.lastName = lastName;
            this.group = group;
            this.handledAtStart = handledNow;
        }

        String child(String name) {
            return relDir.isEmpty() ? name : relDir + "/" + name;
        }
    }

    private final class Page {
        final String bucketDirectory;
        final String bucket;
        final BucketTask.Details task;
        final BucketVersioning versioning;
        final WalkVisitor decisions;
        final PageOutput out;
        final String prefix;
        final Deque<Frame> stack = new ArrayDeque<>();

        Page(String bucketDirectory, String bucket, BucketTask.Details task, BucketVersioning versioning,
             WalkVisitor decisions, PageOutput out) {
            this.bucketDirectory = bucketDirectory;
            this.bucket = bucket;
            this.task = task;
            this.versioning = versioning;
            this.decisions = decisions;
            this.out = out;
            this.prefix = task.prefix() == null ? "" : task.prefix();
        }

        Optional<Position> run() {
            resume();
            while (!stack.isEmpty()) {
                Frame f = stack.peek();
                if (f.buffer.isEmpty()) {
                    if (f.exhausted) {
                        stack.pop();
                        continue;
                    }
                    // A key's versions go whole into the page that reached its directory: a page ended before
                    // listing them would leave a continuation inside the directory, and the next page could not
                    // trust their order (ranks unknown, so a keep-count rule would wait for the next walk).
                    if (out.handled >= pageSize && (f.group == null || !f.group.unlisted())) {
                        return Optional.of(position());
                    }
                    fill(f);
                    continue;
                }
                if (f.group == null && out.handled >= pageSize) {
                    return Optional.of(position());
                }
                Entry entry = f.buffer.poll();
                if (f.group == null || !f.group.complete()) {
                    f.lastName = entry.getName();
                }
                f.taken++;
                out.handled++;
                handle(f, entry);
            }
            return Optional.empty();
        }

        /** The stack of directories the marker lies in, each to continue after the marker's name in it. */
        private void resume() {
            String marker = task.marker() == null ? "" : task.marker();
            String[] parts = marker.isEmpty() ? new String[] {""} : marker.split("/", -1);
            String dir = bucketDirectory;
            String rel = "";
            for (int i = 0; i < parts.length; i++) {
                boolean deepest = i == parts.length - 1;
                FrameKind kind = kindOf(rel, i == 0 ? null : parts[i - 1]);
                VersionGroup group = null;
                if (kind == FrameKind.VERSIONS) {
                    group = deepest && task.versions() != null
                            ? VersionGroup.resumed(S3Layout.objectOfVersionsDirectory(rel), task.versions())
                            : VersionGroup.fresh(S3Layout.objectOfVersionsDirectory(rel), lookupDirectory(dir));
                }
                Frame frame = new Frame(dir, rel, kind, parts[i], group, out.handled);
                stack.push(frame);
                if (!deepest) {
                    rel = frame.child(parts[i]);
                    dir = dir + "/" + parts[i];
                }
            }
        }

        private FrameKind kindOf(String rel, String name) {
            if (name == null) {
                return FrameKind.PLAIN;
            }
            if (rel.equals(S3Layout.UPLOADS_DIRECTORY)) {
                return FrameKind.UPLOADS;
            }
            if (versioning.versioned() && S3Layout.isVersionsDirectoryName(name)) {
                return FrameKind.VERSIONS;
            }
            return FrameKind.PLAIN;
        }

        private Entry lookupDirectory(String dir) {
            int slash = dir.lastIndexOf('/');
            out.lookupCalls++;
            return lister.lookup(dir.substring(0, slash), dir.substring(slash + 1)).orElse(null);
        }

        private void fill(Frame f) {
            if (f.kind == FrameKind.VERSIONS && f.group.unlisted()) {
                // A key's versions are ranked from one listing, whole, whatever the page size: a rank counted across
                // pages would be wrong as soon as a version between them is deleted, and nothing downstream can
                // see a rank.
                List<Entry> all = lister.listAll(f.dir, VERSIONS_LISTING);
                out.listCalls += all.size() / VERSIONS_LISTING + 1;
                out.listed += all.size();
                f.exhausted = true;
                f.group.piece(all, true);
                f.buffer.addAll(VersionGroup.sorted(all));
                if (!all.isEmpty()) {
                    f.lastName = all.get(all.size() - 1).getName();
                }
                return;
            }
            int remaining = (int) Math.max(1, pageSize - out.handled);
            int limit;
            if (f.kind == FrameKind.VERSIONS) {
                // A walk resumed inside a .versions directory by an older version of Tidemark: its ranks are unknown.
                limit = Math.max(2, remaining);
            } else if (f.taken == 0) {
                limit = Math.min(remaining, FIRST_PIECE);
            } else {
                double costPerEntry = Math.max(1.0, (double) (out.handled - f.handledAtStart) / f.taken);
                limit = (int) Math.max(1, Math.min(remaining, Math.floor(remaining / costPerEntry)));
            }
            List<Entry> got = lister.list(f.dir, namePrefix(f), f.lastName, limit);
            out.listCalls++;
            out.listed += got.size();
            f.exhausted = got.size() < limit;
            if (f.group != null) {
                f.group.piece(got, f.exhausted);
                f.buffer.addAll(f.group.complete() ? VersionGroup.sorted(got) : got);
                if (f.group.complete() && !got.isEmpty()) {
                    f.lastName = got.get(got.size() - 1).getName();
                }
            } else {
                f.buffer.addAll(got);
            }
        }

        private void handle(Frame f, Entry entry) {
            switch (f.kind) {
                case VERSIONS -> f.group.version(f.dir, entry, decisions, out);
                case UPLOADS -> upload(f, entry);
                default -> plain(f, entry);
            }
        }

        private void plain(Frame f, Entry entry) {
            String rel = f.child(entry.getName());
            if (entry.getIsDirectory()) {
                if (f.relDir.isEmpty() && entry.getName().equals(S3Layout.UPLOADS_DIRECTORY)) {
                    stack.push(new Frame(f.dir + "/" + entry.getName(), rel, FrameKind.UPLOADS, "", null, out.handled));
                } else if (versioning.versioned() && S3Layout.isVersionsDirectoryName(entry.getName())) {
                    String key = S3Layout.objectOfVersionsDirectory(rel);
                    if (underPrefix(key)) {
                        stack.push(new Frame(f.dir + "/" + entry.getName(), rel, FrameKind.VERSIONS, "",
                                VersionGroup.fresh(key, entry), out.handled));
                    }
                } else if (mayHoldPrefix(rel)) {
                    stack.push(new Frame(f.dir + "/" + entry.getName(), rel, FrameKind.PLAIN, "", null, out.handled));
                }
                return;
            }
            if (!underPrefix(rel)) {
                return;
            }
            if (versioning.versioned()) {
                bareInVersionedBucket(f, entry, rel);
            } else {
                ObjectVersion version = ObjectVersion.plain(rel, entry.getAttributes().getFileSize(),
                        S3Entries.tags(entry), S3Entries.modTime(entry));
                if (S3Entries.isDeleteMarker(entry)) {
                    out.anomalies++;
                    return;
                }
                decisions.version(f.dir, entry, version, RearmRole.CURRENT, Optional.empty());
            }
        }

        /**
         * A bare object in a versioned bucket is its key's null version: current unless the key's {@code .versions}
         * directory says another version is latest. That directory is looked up (bare objects are rare once a
         * bucket is versioned). A noncurrent null version carries no demotion stamp (the gateway stamps only the
         * file its pointer names, and a current null version has none), so the key's versions are listed: it became
         * noncurrent when the next newer version was created, and its rank counts the noncurrent versions above it.
         */
        private void bareInVersionedBucket(Frame f, Entry entry, String key) {
            Optional<Entry> versionsDir = lister.lookup(f.dir, S3Layout.versionsDirectoryName(entry.getName()));
            out.lookupCalls++;
            boolean latest = versionsDir.isEmpty() || S3Versions.nullIsLatest(versionsDir.get())
                    || S3Versions.latestVersionId(versionsDir.get()).isEmpty();
            long size = entry.getAttributes().getFileSize();
            if (latest) {
                if (S3Entries.isDeleteMarker(entry)) {
                    return;
                }
                ObjectVersion version = new ObjectVersion(key, size, S3Entries.tags(entry), S3Entries.modTime(entry),
                        true, false, S3Layout.NULL_VERSION_ID, null, versionsDir.isEmpty() ? 1 : 2, null);
                decisions.version(f.dir, entry, version, RearmRole.CURRENT, Optional.empty());
                return;
            }
            List<Entry> files = lister.listAll(f.dir + "/" + versionsDir.get().getName(), VERSIONS_LISTING);
            out.listCalls++;
            List<S3Versions.Version> newestFirst = S3Versions.newestFirst(files, Optional.of(entry));
            Optional<Instant> stamp = S3Entries.noncurrentSince(entry);
            Instant since = stamp.orElse(successorOf(newestFirst, entry).orElse(null));
            Integer rank = S3Versions.noncurrentRank(newestFirst, S3Versions.latestVersionId(versionsDir.get()),
                    S3Layout.NULL_VERSION_ID).orElse(null);
            ObjectVersion version = new ObjectVersion(key, size, S3Entries.tags(entry), S3Entries.modTime(entry),
                    false, S3Entries.isDeleteMarker(entry), S3Layout.NULL_VERSION_ID, since, newestFirst.size(), rank);
            // Replay-streams times it from the flip that demoted it, which carries no entry: as one event shows it,
            // it has no successor time.
            ObjectVersion asOneEvent = new ObjectVersion(key, size, S3Entries.tags(entry), S3Entries.modTime(entry),
                    false, S3Entries.isDeleteMarker(entry), S3Layout.NULL_VERSION_ID, stamp.orElse(null),
                    newestFirst.size(), null);
            decisions.version(f.dir, entry, version, RearmRole.NONCURRENT, Optional.of(asOneEvent));
        }

        /** The creation of the version just newer than {@code entry} in the gateway's order, if there is one. */
        private static Optional<Instant> successorOf(List<S3Versions.Version> newestFirst, Entry entry) {
            for (int i = 0; i < newestFirst.size(); i++) {
                if (newestFirst.get(i).entry() == entry) {
                    return i == 0 ? Optional.empty() : Optional.of(S3Entries.modTime(newestFirst.get(i - 1).entry()));
                }
            }
            return Optional.empty();
        }

        private void upload(Frame f, Entry entry) {
            var destination = entry.getExtendedMap().get(S3Layout.UPLOAD_DESTINATION_KEY);
            if (!entry.getIsDirectory() || destination == null || destination.isEmpty()) {
                out.anomalies++;
                log.warn("bucket {}: {}/{} does not look like a multipart upload (a directory naming its key); "
                        + "skipped", bucket, f.relDir, entry.getName());
                return;
            }
            String key = destination.toStringUtf8();
            if (underPrefix(key)) {
                decisions.upload(f.dir, entry, key);
            }
        }

        /**
         * The name prefix a directory is listed with: a walk of one prefix lists, in each directory on the prefix's
         * path, only the names that can lead to it (the filer filters them), instead of the whole directory. Inside
         * the prefix (a directory the prefix ends in or lies above), everything.
         */
        private String namePrefix(Frame f) {
            if (prefix.isEmpty() || f.kind != FrameKind.PLAIN) {
                return "";
            }
            String remainder;
            if (f.relDir.isEmpty()) {
                remainder = prefix;
            } else if (prefix.startsWith(f.relDir + "/")) {
                remainder = prefix.substring(f.relDir.length() + 1);
            } else {
                return "";
            }
            int slash = remainder.indexOf('/');
            return slash < 0 ? remainder : remainder.substring(0, slash);
        }

        private boolean underPrefix(String key) {
            return key.startsWith(prefix);
        }

        /** Whether keys under directory {@code rel} can start with the prefix. */
        private boolean mayHoldPrefix(String rel) {
            String dir = rel + "/";
            return dir.startsWith(prefix) || prefix.startsWith(dir);
        }

        /** The next page's start: after the deepest directory's last handled name. */
        private Position position() {
            Frame deepest = stack.peek();
            for (Frame f : stack) {
                out.relisted += f.buffer.size();
            }
            String marker = deepest.relDir.isEmpty() ? deepest.lastName : deepest.relDir + "/" + deepest.lastName;
            VersionsCursor versions = deepest.group == null ? null : deepest.group.cursor();
            return new Position(marker, versions);
        }
    }

}
