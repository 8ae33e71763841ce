package io.tidemark.devtools.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where a benchmark's CPU goes: the CPU time (user and system) of this JVM's threads between two moments, summed by
 * the role their names give away. A benchmark that runs Kafka, the emulator and a service in one JVM on a small
 * machine is bound by CPU, so a rate ratio is explained by what each part costs per event. Time outside Java threads
 * (the JIT compiler, the garbage collector) is the process's CPU less the threads'.
 */
public final class CpuByRole {

    /** A role owns the threads whose names contain one of its marks. */
    private record Role(String name, List<String> marks) {
        boolean owns(String thread) {
            return marks.stream().anyMatch(thread::contains);
        }
    }

    // First match wins: the services' own threads before the Kafka client and broker threads they resemble.
    private static final List<Role> ROLES = List.of(
            new Role("populator", List.of("populator-")),
            new Role("replay-streams", List.of("-StreamThread-", "replay-streams")),
            new Role("object processor", List.of("object-processor")),
            new Role("Kafka producer I/O", List.of("kafka-producer-network-thread")),
            new Role("emulator stream serving", List.of("filer-subscription-stream")),
            new Role("gRPC transport (emulator and clients)", List.of("grpc-")),
            new Role("Kafka broker", List.of("data-plane-kafka", "kafka-", "TxnMarkerSender", "AddPartitionsToTxn",
                    "quorum-controller", "raft-", "transaction-", "group-coordinator", "ExpirationReaper",
                    "broker-", "controller-")),
            new Role("ZooKeeper", List.of("zookeeper", "Curator", "NIOServerCxn", "SessionTracker", "SyncThread",
                    "ProcessThread", "main-EventThread", "main-SendThread")));
    private static final String OTHER_THREADS = "other threads";
    private static final String OUTSIDE_THREADS = "JIT and GC";

    private final long processCpuNanos;
    private final Map<Long, Long> threadCpuNanos;
    private final Map<Long, String> threadNames;

    private CpuByRole(long processCpuNanos, Map<Long, Long> threadCpuNanos, Map<Long, String> threadNames) {
        this.processCpuNanos = processCpuNanos;
        this.threadCpuNanos = threadCpuNanos;
        this.threadNames = threadNames;
    }

    public static CpuByRole now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new LinkedHashMap<>();
        Map<Long, String> names = new LinkedHashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;   // ended since the ids were listed
            }
            long nanos = threads.getThreadCpuTime(info.getThreadId());
            if (nanos >= 0) {
                cpu.put(info.getThreadId(), nanos);
                names.put(info.getThreadId(), info.getThreadName());
            }
        }
        long process = ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
        return new CpuByRole(process, cpu, names);
    }

    /**
     * CPU seconds per role from {@code before} to this snapshot. Threads that started in between count from zero;
     * threads that ended in between are lost to the per-role figures but stay in the process total, under
     * {@value #OUTSIDE_THREADS}.
     */
    public Map<String, Double> since(CpuByRole before) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        ROLES.forEach(role -> seconds.put(role.name(), 0.0));
        seconds.put(OTHER_THREADS, 0.0);
        double threadsTotal = 0;
        for (Map.Entry<Long, Long> thread : threadCpuNanos.entrySet()) {
            double used = (thread.getValue() - before.threadCpuNanos.getOrDefault(thread.getKey(), 0L)) / 1e9;
            String name = threadNames.get(thread.getKey());
            String role = ROLES.stream().filter(r -> r.owns(name)).map(Role::name).findFirst().orElse(OTHER_THREADS);
            seconds.merge(role, used, Double::sum);
            threadsTotal += used;
        }
        if (processCpuNanos >= 0 && before.processCpuNanos >= 0) {
            seconds.put(OUTSIDE_THREADS, Math.max(0, (processCpuNanos - before.processCpuNanos) / 1e9 - threadsTotal));
        }
        return seconds;
    }

    /** {@code "6.91 CPU-s per million events: populator 1.23, Kafka broker 2.34, …"}: the roles that used any. */
    public static String perMillion(Map<String, Double> seconds, long count, String unit) {
        if (count <= 0) {
            return "no " + unit + " in the measured span";
        }
        double total = seconds.values().stream().mapToDouble(Double::doubleValue).sum();
        return String.format(Locale.ROOT, "%.2f CPU-s per million %s: ", total * 1e6 / count, unit)
                + seconds.entrySet().stream().filter(e -> e.getValue() * 1e6 / count >= 0.005)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue() * 1e6 / count))
                .collect(Collectors.joining(", "));
    }
}
