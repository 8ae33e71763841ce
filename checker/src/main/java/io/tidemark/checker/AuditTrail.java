package io.tidemark.checker;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.util.List;

/** A run's audit trail: every record of {@code lifecycle-events} the object processor wrote, read to its end. */
final class AuditTrail {

    private AuditTrail() {
    }

    static List<LifecycleEvent> read(TidemarkConfig config) {
        return TopicReader.committedValues(config.consumerProperties(), TopicRegistry.from(config).lifecycleEvents(),
                Duration.ofSeconds(30));
    }
}
