package io.tidemark.devtools.quickstart;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The quickstart's demo: a bucket whose rules exercise each path — timers (logs/ expire a lifecycle day after they
 * are written; forgotten multipart uploads are aborted after one), the walker (archive/ expired by a date already
 * past) — and objects no rule touches (keep/). New logs keep arriving, so deletes keep happening.
 */
final class DemoBucket {

    static final String BUCKET = "demo";
    private static final Pattern LOG_NAME = Pattern.compile("app-(\\d+)\\.log");

    private final S3Gateway s3;
    private final AtomicLong written = new AtomicLong();
    private long next;

    DemoBucket(S3Gateway s3) {
        this.s3 = s3;
    }

    /**
     * Creates the bucket, its rules and its first objects; a bucket left by an earlier run on the same data directory
     * is taken up as it is, and new logs are numbered after the newest one there.
     */
    void create(Instant now) {
        if (s3.bucketExists(BUCKET)) {
            next = newestLog() + 1;
            return;
        }
        String yesterday = now.minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.DAYS).toString();
        s3.createBucket(BUCKET, false);
        s3.putLifecycle(BUCKET, "<LifecycleConfiguration>"
                + "<Rule><ID>logs-expire-after-a-day</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status>"
                + "<Expiration><Days>1</Days></Expiration></Rule>"
                + "<Rule><ID>archive-expired-by-date</ID><Filter><Prefix>archive/</Prefix></Filter>"
                + "<Status>Enabled</Status><Expiration><Date>" + yesterday + "</Date></Expiration></Rule>"
                + "<Rule><ID>abort-forgotten-uploads</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule>"
                + "</LifecycleConfiguration>");
        for (int i = 0; i < 5; i++) {
            put("archive/report-" + i + ".pdf");
            put("keep/photo-" + i + ".jpg");
        }
        s3.createUpload(BUCKET, "uploads/forgotten.iso");
        writeLogs(5);
    }

    void writeLogs(int count) {
        for (int i = 0; i < count; i++) {
            put(String.format("logs/app-%05d.log", next++));
        }
    }

    /** The number of the newest {@code logs/app-N.log} in the bucket, or -1 when there is none. */
    private long newestLog() {
        long newest = -1;
        for (Entry e : s3.store().list(s3.bucketDirectory(BUCKET) + "/logs", "", "", false, 0)) {
            Matcher m = LOG_NAME.matcher(e.getName());
            if (!e.getIsDirectory() && m.matches()) {
                newest = Math.max(newest, Long.parseLong(m.group(1)));
            }
        }
        return newest;
    }

    private void put(String key) {
        s3.putObject(BUCKET, key, 1_024, Map.of(), Map.of());
        written.incrementAndGet();
    }

    long written() {
        return written.get();
    }

    /** Objects in the bucket now (files outside the uploads directory). */
    long objects() {
        long count = 0;
        Deque<String> directories = new ArrayDeque<>(List.of(s3.bucketDirectory(BUCKET)));
        while (!directories.isEmpty()) {
            String dir = directories.pop();
            for (Entry e : s3.store().list(dir, "", "", false, 0)) {
                if (e.getIsDirectory()) {
                    if (!e.getName().equals(".uploads")) {
                        directories.push(dir + "/" + e.getName());
                    }
                } else {
                    count++;
                }
            }
        }
        return count;
    }
}
