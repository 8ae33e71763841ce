package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.seaweed.client.ClusterNode;
import io.tidemark.seaweed.client.ServerAddress;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FilerDiscoveryTest {

    @Test
    void shouldFindTheListedFilersAndThoseTheMasterNamesAndKeepItsLastAnswerWhileItFails() {
        Instant joined = Instant.parse("2026-11-26T10:00:00Z");
        AtomicReference<List<ClusterNode>> answer = new AtomicReference<>(List.of(
                new ClusterNode(new ServerAddress("10.0.0.2:8888"), "4.47", joined),
                new ClusterNode(new ServerAddress("10.0.0.3:8888.19000"), "4.47", joined)));
        FilerDiscovery discovery = new FilerDiscovery(List.of(" 10.0.0.1:18888"), () -> {
            List<ClusterNode> nodes = answer.get();
            if (nodes == null) {
                throw new IllegalStateException("UNAVAILABLE");
            }
            return nodes;
        }, null);

        assertThat(discovery.enabled()).isTrue();
        FilerDiscovery.Found answered = discovery.find();
        assertThat(answered.filers()).containsExactly(
                java.util.Map.entry("10.0.0.1:18888", Optional.empty()),
                java.util.Map.entry("10.0.0.2:18888", Optional.of(joined)),
                java.util.Map.entry("10.0.0.3:19000", Optional.of(joined)));
        assertThat(answered.listed()).isTrue();

        answer.set(null);
        FilerDiscovery.Found unanswered = discovery.find();
        assertThat(unanswered.filers()).containsOnlyKeys("10.0.0.1:18888", "10.0.0.2:18888", "10.0.0.3:19000");
        assertThat(unanswered.listed()).as("the master's last answer stands, but it is not a new list").isFalse();
    }

    @Test
    void shouldTailOneFilersStreamWhenNeitherAListNorAMasterIsGiven() {
        assertThat(new FilerDiscovery(List.of(), null, null).enabled()).isFalse();
    }
}
