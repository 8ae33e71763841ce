package io.tidemark.topics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer group's committed lag on its topics, read from Kafka every {@code interval} and exported as {@code
 * tidemark_consumer_group_committed_lag{group}}: the figure {@code tidemark status} shows and the cursor Tidemark makes
 * of committed offsets (architecture.md, Cursors). A consumer's own fetch-position lag ({@code records_lag_max}) says
 * how far its fetches are behind, not how much work is not done: a task held by RETRY_LATER, or read and lost with its
 * instance, lags only here. Every instance of a group exports the same figure; alerts take the maximum.
 */
public final class CommittedLagGauge implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CommittedLagGauge.class);
    /** How often the figure is read: within any Prometheus scrape interval, so each scrape sees a fresh one. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

    private final Admin admin;
    private final ScheduledExecutorService timer;
    private volatile double lag = Double.NaN;
    private volatile double position = Double.NaN;

    private CommittedLagGauge(Admin admin, String group, List<String> topics, Duration interval) {
        this.admin = admin;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "committed-lag-" + group);
            t.setDaemon(true);
            return t;
        });
        GroupLag reader = new GroupLag(admin);
        timer.scheduleWithFixedDelay(() -> {
            try {
                GroupLag.Totals totals = reader.totals(group, topics);
                lag = totals.lag();
                position = totals.position();
            } catch (Exception e) {
                // Unknown is not zero: the gauge shows no value until Kafka answers again.
                lag = Double.NaN;
                position = Double.NaN;
                log.debug("committed lag of {} not read: {}", group, e.toString());
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts reading the group's committed lag and registers the gauge; close it with the service. */
    public static CommittedLagGauge start(Map<String, Object> adminProperties, MeterRegistry meters,
                                          ConsumerGroups.Group group, Duration interval) {
        Map<String, Object> properties = new java.util.HashMap<>(adminProperties);
        properties.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        properties.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        CommittedLagGauge gauge = new CommittedLagGauge(Admin.create(properties), group.id(), group.topics(), interval);
        Gauge.builder("tidemark.consumer.group.committed.lag", gauge, g -> g.lag).tag("group", group.id())
                .description("Records in the group's topics past its committed offsets: work not done yet (read "
                        + "from Kafka every few seconds; the same figure on every instance of the group)")
                .register(meters);
        Gauge.builder("tidemark.consumer.group.committed.offsets", gauge, g -> g.position).tag("group", group.id())
                .description("The sum of the group's committed offsets over its topics' partitions: it grows by what "
                        + "the group finishes, so deriv() of it is the group's pace, and the lag divided by that pace "
                        + "the time the backlog takes to drain")
                .register(meters);
        return gauge;
    }

    public double lag() {
        return lag;
    }

    public double position() {
        return position;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        admin.close(Duration.ofSeconds(5));
    }
}
