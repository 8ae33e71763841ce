package io.tidemark.benchmarks;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleCompiler;
import io.tidemark.lifecycle.engine.RuleSet;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Evaluations per second of one object version against a bucket's rule set, on one thread. The rule set
 * mixes plain prefixes, prefix-and-tag filters, tag-only filters and size bounds, with expiration,
 * noncurrent and multipart actions; the objects are spread over matching and non-matching keys, tagged and
 * untagged, current and noncurrent.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class RuleEvaluationBenchmark {

    private static final int OBJECTS = 4096;
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    @Param({"1", "100", "1000"})
    public int rules;

    private RuleSet ruleSet;
    private ObjectVersion[] objects;
    private int next;

    @Setup
    public void setUp() throws LifecycleConfigException {
        ruleSet = RuleCompiler.compile(LifecycleConfigs.parseAndValidate(configuration(rules)), LifecycleCalendar.aws());
        SplittableRandom random = new SplittableRandom(42);
        objects = new ObjectVersion[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            objects[i] = object(random, rules);
        }
    }

    /** {@code n} rules: prefixes {@code team-<i>/}, every fourth with a tag, every tenth tag-only, some sized. */
    static String configuration(int n) {
        StringBuilder doc = new StringBuilder("<LifecycleConfiguration>");
        for (int i = 0; i < n; i++) {
            String prefix = "team-" + i + "/";
            String filter;
            if (i % 10 == 9) {
                filter = "<Tag><Key>project</Key><Value>p" + i + "</Value></Tag>";
            } else if (i % 4 == 3) {
                filter = "<And><Prefix>" + prefix + "</Prefix><Tag><Key>class</Key><Value>temp</Value></Tag></And>";
            } else if (i % 7 == 6) {
                filter = "<And><Prefix>" + prefix + "</Prefix><ObjectSizeGreaterThan>1024</ObjectSizeGreaterThan>"
                        + "<ObjectSizeLessThan>1048576</ObjectSizeLessThan></And>";
            } else {
                filter = "<Prefix>" + prefix + "</Prefix>";
            }
            String actions = "<Expiration><Days>" + (1 + i % 90) + "</Days></Expiration>"
                    + "<NoncurrentVersionExpiration><NoncurrentDays>" + (1 + i % 30) + "</NoncurrentDays>"
                    + "</NoncurrentVersionExpiration>";
            if (i % 10 != 9 && i % 4 != 3 && i % 7 != 6) {
                actions += "<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation>"
                        + "</AbortIncompleteMultipartUpload>";
            }
            doc.append("<Rule><ID>rule-").append(i).append("</ID><Filter>").append(filter)
                    .append("</Filter><Status>Enabled</Status>").append(actions).append("</Rule>");
        }
        return doc.append("</LifecycleConfiguration>").toString();
    }

    static ObjectVersion object(SplittableRandom random, int rules) {
        // A quarter of keys fall outside every prefix; the others go into one team's folder.
        String key = random.nextInt(4) == 0
                ? "shared/reports/2025/06/" + random.nextInt(100_000) + ".csv"
                : "team-" + random.nextInt(rules) + "/data/2025/06/object-" + random.nextInt(100_000) + ".bin";
        Map<String, String> tags = switch (random.nextInt(4)) {
            case 0 -> Map.of("class", "temp");
            case 1 -> Map.of("project", "p" + random.nextInt(rules), "owner", "ops");
            default -> Map.of();
        };
        Instant mod = NOW.minusSeconds(random.nextLong(120L * 86400));
        boolean latest = random.nextInt(3) != 0;
        return new ObjectVersion(key, random.nextLong(4 << 20), tags, mod, latest, false,
                "v" + random.nextInt(1000), latest ? null : mod.plusSeconds(3600), 3, latest ? null : random.nextInt(3));
    }

    @Benchmark
    public Evaluation evaluate() {
        ObjectVersion object = objects[next];
        next = (next + 1) & (OBJECTS - 1);
        return ruleSet.evaluate(object, BucketVersioning.ENABLED, NOW);
    }
}
