package io.tidemark.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A port chosen as "free" can be gone by the time the server binds it, and two separate choices can name the same
 * port; either used to fail a node's first start, and with it a whole test class.
 */
class PortChoiceTest {

    @Test
    void shouldNeverHandOutOnePortTwiceForOneNode() {
        for (int round = 0; round < 200; round++) {
            List<Integer> ports = Ports.distinct(3);
            assertThat(new HashSet<>(ports)).hasSize(3);
        }
    }

    @Test
    void shouldStartKafkaOnOtherPortsWhenTheChosenOnesWereTakenBeforeItBound(@TempDir Path dir) throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = squatter.getLocalPort();
            EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0, firstTaken(taken));
            try {
                assertThat(kafka.address()).doesNotEndWith(":" + taken);
                createTopic(kafka.address(), "after-clash");
            } finally {
                kafka.close();
            }
        }
    }

    @Test
    void shouldStartZooKeeperOnAnotherPortWhenTheChosenOneWasTakenBeforeItBound(@TempDir Path dir) throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = squatter.getLocalPort();
            EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir, 0, firstTaken(taken));
            try {
                assertThat(zookeeper.address()).doesNotEndWith(":" + taken);
            } finally {
                zookeeper.close();
            }
        }
    }

    /** The first answer names a port another process holds (as if it took it after the choice); then real ones. */
    private static Ports.Source firstTaken(int taken) {
        AtomicBoolean first = new AtomicBoolean(true);
        return count -> {
            if (first.getAndSet(false)) {
                Set<Integer> ports = new HashSet<>(Ports.distinct(count - 1));
                ports.add(taken);
                return List.copyOf(ports).stream().sorted((a, b) -> a == taken ? -1 : b == taken ? 1 : 0).toList();
            }
            return Ports.distinct(count);
        };
    }

    private static void createTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }
}
