package io.tidemark.service;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.seaweed.client.FilerClock;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The meter registry every service exposes on {@code /metrics}, with the JVM binders, and the binders that put a
 * Kafka client's or a Streams app's own metrics beside Tidemark's. Close what a bind returns when the client goes.
 */
public final class Metrics {

    private Metrics() {
    }

    public static PrometheusMeterRegistry newRegistry(String service) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("service", service);
        JvmGcMetrics gc = new JvmGcMetrics();
        for (MeterBinder binder : new MeterBinder[] {new JvmMemoryMetrics(), gc, new JvmThreadMetrics(),
            new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics()}) {
            binder.bindTo(registry);
        }
        return registry;
    }

    /**
     * The gauge of this host's clock against the filer's, from the last reading (NaN before the first): what the
     * clock alert watches. Due times are judged on the filer's clock whatever it shows; a large skew still means this
     * host's timestamps (audit records, logs) are off.
     */
    public static AutoCloseable bind(MeterRegistry registry, FilerClock filerTime) {
        Gauge gauge = Gauge.builder("tidemark.filer.clock.skew.seconds", filerTime,
                        t -> t.lastReading().map(r -> r.skew().toNanos() / 1e9).orElse(Double.NaN))
                .description("This host's clock less the filer's at the last Ping (positive: this host is ahead); "
                        + "due times are judged on the filer's clock").register(registry);
        return () -> registry.remove(gauge);
    }

    public static AutoCloseable bind(MeterRegistry registry, Producer<?, ?> producer) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(producer);
        metrics.bindTo(registry);
        return metrics;
    }

    public static AutoCloseable bind(MeterRegistry registry, Consumer<?, ?> consumer) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(consumer);
        metrics.bindTo(registry);
        return metrics;
    }

    public static AutoCloseable bind(MeterRegistry registry, AdminClient admin) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(admin);
        metrics.bindTo(registry);
        return metrics;
    }

    public static AutoCloseable bind(MeterRegistry registry, KafkaStreams streams) {
        KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams);
        metrics.bindTo(registry);
        return metrics;
    }
}
