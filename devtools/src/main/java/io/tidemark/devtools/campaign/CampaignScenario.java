package io.tidemark.devtools.campaign;

import io.tidemark.emulator.s3.S3Gateway;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The objects a campaign writes and what S3's rules say must become of each — written here by hand from the rules,
 * not computed by the engine under test. An unversioned bucket (Days by prefix, a tag filter, a past Date, and
 * {@code late/} objects no rule covers until a rule edit adds one) and an object-lock bucket (NoncurrentDays keeping
 * one newer noncurrent version; a legal hold).
 */
final class CampaignScenario {

    static final String PLAIN = "campaign-plain";
    static final String LOCKED = "campaign-locked";
    /** Objects under it are kept until the first rule edit; from then on they go a day after they were written. */
    static final String LATE = "late/";

    /**
     * @param versionId the version the fate is about, or {@code null} for the key's current object
     * @param notBefore before this, the object must still be there (the rule cannot have made it due yet)
     */
    record Fate(String bucket, String key, String versionId, boolean gone, Instant notBefore) {

        String name() {
            return bucket + "/" + key + (versionId == null ? "" : "#" + versionId);
        }
    }

    private final S3Gateway s3;
    private final Duration day;
    private int ruleEdits;

    CampaignScenario(S3Gateway s3, Duration day) {
        this.s3 = s3;
        this.day = day;
    }

    void setUp(Instant now) {
        String yesterday = now.minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.DAYS).toString();
        this.yesterday = yesterday;
        s3.createBucket(PLAIN, false);
        s3.putLifecycle(PLAIN, plainRules());
        s3.createBucket(LOCKED, true);
        s3.putLifecycle(LOCKED, "<LifecycleConfiguration>"
                + rule("noncurrent", "<Prefix></Prefix>", "<NoncurrentVersionExpiration><NoncurrentDays>1"
                        + "</NoncurrentDays><NewerNoncurrentVersions>1</NewerNoncurrentVersions>"
                        + "</NoncurrentVersionExpiration>")
                + "</LifecycleConfiguration>");
    }

    private String yesterday;

    /** The unversioned bucket's rules after {@link #ruleEdits} edits; every edit renames them and rotates their order. */
    private String plainRules() {
        String suffix = ruleEdits == 0 ? "" : "-e" + ruleEdits;
        List<String> rules = new ArrayList<>(List.of(
                rule("logs" + suffix, "<Prefix>logs/</Prefix>", "<Expiration><Days>1</Days></Expiration>"),
                rule("scratch" + suffix, "<And><Prefix>tmp/</Prefix><Tag><Key>class</Key><Value>scratch</Value></Tag>"
                        + "</And>", "<Expiration><Days>1</Days></Expiration>"),
                rule("old" + suffix, "<Prefix>old/</Prefix>", "<Expiration><Date>" + yesterday
                        + "</Date></Expiration>")));
        if (ruleEdits > 0) {
            rules.add(rule("late" + suffix, "<Prefix>" + LATE + "</Prefix>", "<Expiration><Days>1</Days></Expiration>"));
        }
        java.util.Collections.rotate(rules, ruleEdits);
        return "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    }

    /**
     * Edits the unversioned bucket's lifecycle configuration. The first edit adds a rule for {@link #LATE}: the
     * objects there, kept until now, become due a day after they were written (at once for the older ones), which
     * only a recovery walk can arrange for those written before the edit. Later edits rename and reorder the rules,
     * which changes nothing S3 would do. The fates change before the configuration does, so the watcher never
     * judges a delete by the old ones.
     */
    String editRules(List<Fate> fates) {
        ruleEdits++;
        if (ruleEdits == 1) {
            fates.replaceAll(f -> f.key().startsWith(LATE) && !f.gone()
                    ? new Fate(f.bucket(), f.key(), f.versionId(), true, f.notBefore()) : f);
        }
        s3.putLifecycle(PLAIN, plainRules());
        return ruleEdits == 1 ? "rule edit: late/ now expires a day after writing"
                : "rule edit " + ruleEdits + ": rules renamed and reordered, same meaning";
    }

    private static String rule(String id, String filter, String action) {
        return "<Rule><ID>" + id + "</ID><Filter>" + filter + "</Filter><Status>Enabled</Status>" + action + "</Rule>";
    }

    /** Writes one round's objects and returns their fates. */
    List<Fate> round(int round, Random random) {
        List<Fate> fates = new ArrayList<>();
        Instant now = Instant.now();
        // Due a day after writing; allow a second for the filer's whole-second mtimes.
        Instant dueFloor = now.plus(day).minusSeconds(1);
        int logs = 3 + random.nextInt(8);
        for (int i = 0; i < logs; i++) {
            String key = "logs/r" + round + "-" + i;
            s3.putObject(PLAIN, key, 1 + random.nextInt(1_000), Map.of(), Map.of());
            fates.add(new Fate(PLAIN, key, null, true, dueFloor));
        }
        s3.putObject(PLAIN, "tmp/r" + round + "-scratch", 10, Map.of("class", "scratch"), Map.of());
        fates.add(new Fate(PLAIN, "tmp/r" + round + "-scratch", null, true, dueFloor));
        s3.putObject(PLAIN, "tmp/r" + round + "-plain", 10, Map.of("class", "other"), Map.of());
        fates.add(new Fate(PLAIN, "tmp/r" + round + "-plain", null, false, null));
        s3.putObject(PLAIN, "keep/r" + round, 10, Map.of(), Map.of());
        fates.add(new Fate(PLAIN, "keep/r" + round, null, false, null));
        s3.putObject(PLAIN, "old/r" + round, 10, Map.of(), Map.of());
        fates.add(new Fate(PLAIN, "old/r" + round, null, true, Instant.EPOCH));
        // Kept while no rule covers it; its notBefore is what a rule added later allows.
        s3.putObject(PLAIN, LATE + "r" + round, 10, Map.of(), Map.of());
        fates.add(new Fate(PLAIN, LATE + "r" + round, null, ruleEdits > 0, dueFloor));

        // Three versions: the newest is current, the next is the one noncurrent version kept, the oldest goes a day
        // after it became noncurrent.
        String key = "doc-r" + round;
        String oldest = s3.putObject(LOCKED, key, 1, Map.of(), Map.of());
        String middle = s3.putObject(LOCKED, key, 2, Map.of(), Map.of());
        Instant demoted = Instant.now();
        String newest = s3.putObject(LOCKED, key, 3, Map.of(), Map.of());
        fates.add(new Fate(LOCKED, key, oldest, true, demoted.plus(day).minusSeconds(1)));
        fates.add(new Fate(LOCKED, key, middle, false, null));
        fates.add(new Fate(LOCKED, key, newest, false, null));
        // The same, with the oldest version under legal hold: it stays.
        String held = "held-r" + round;
        String heldOldest = s3.putObject(LOCKED, held, 1, Map.of(), Map.of());
        s3.putLegalHold(LOCKED, held, heldOldest, true);
        s3.putObject(LOCKED, held, 2, Map.of(), Map.of());
        s3.putObject(LOCKED, held, 3, Map.of(), Map.of());
        fates.add(new Fate(LOCKED, held, heldOldest, false, null));
        return fates;
    }

    /** A logs/ object of the round, for identity drift. */
    static String driftCandidate(List<Fate> round, Random random) {
        List<Fate> logs = round.stream().filter(f -> f.key().startsWith("logs/")).toList();
        return logs.get(random.nextInt(logs.size())).key();
    }

    boolean present(Fate fate) {
        if (fate.versionId() != null) {
            return s3.version(fate.bucket(), fate.key(), fate.versionId()).isPresent();
        }
        return s3.latest(fate.bucket(), fate.key()).filter(v -> !v.deleteMarker()).isPresent();
    }
}
