package io.tidemark.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.TidemarkConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44: without {@code zookeeper.auth.digest} the nodes Tidemark creates — the chroot, the operators' pause and
 * dry-run nodes, the bucket registry — are world-writable, and every service says so at start; with it, they are
 * readable by anyone and changed only by the digest's holders, and nothing is said. Against a real ZooKeeper server.
 */
class AclCheckTest {

    @TempDir
    static Path dir;

    static ZooKeeperServer server;
    static ServerCnxnFactory factory;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        server = new ZooKeeperServer(dir.resolve("snap").toFile(), dir.resolve("log").toFile(), 500);
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 20);
        factory.startup(server);
    }

    @AfterAll
    static void stopZooKeeper() {
        if (factory != null) {
            factory.shutdown();
        }
        if (server != null) {
            server.shutdown();
        }
    }

    private static TidemarkConfig config(String chroot, String digest) {
        Map<String, String> values = new HashMap<>(Map.of("zookeeper.connect", "127.0.0.1:" + factory.getLocalPort(),
                "zookeeper.chroot", chroot));
        if (digest != null) {
            values.put("zookeeper.auth.digest", digest);
        }
        return new TidemarkConfig(values);
    }

    /** What a service and an operator create: the lifecycle settings, a bucket's pause and dry run, the registry. */
    private static void populate(ZooKeeperConnection zk, TidemarkConfig config) throws Exception {
        assertThat(zk.awaitConnected(Duration.ofSeconds(10))).isTrue();
        new LifecycleSettings(zk.client()).verify(config, "test", Instant.EPOCH);
        ControlFlag flag = new ControlFlag(Instant.EPOCH, "ops@host", null);
        LifecycleControls controls = new LifecycleControls(zk.client());
        controls.pause(Optional.of("photos"), flag);
        controls.dryRun("logs", true, flag);
        zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.bucket("photos"));
    }

    @Test
    void shouldWarnNamingTheDigestSettingWhenTheNodesAreWorldWritable() throws Exception {
        TidemarkConfig open = config("/acl-open", null);
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(open)) {
            populate(zk, open);
            AclCheck.Result result = AclCheck.read(zk.client(), open);
            assertThat(result.open()).isTrue();
            assertThat(result.digest()).isFalse();
            assertThat(result.worldWritable()).extracting(AclCheck.Node::path).contains("/acl-open",
                    "/acl-open/lifecycle/control", "/acl-open/lifecycle/control/paused",
                    "/acl-open/lifecycle/control/dry-run", "/acl-open/lifecycle/data/buckets",
                    "/acl-open/lifecycle/settings");
            assertThat(result.worldWritable()).allSatisfy(n -> assertThat(n.permissions()).isEqualTo("cdrwa"));
            Optional<String> warning = result.warning("populator");
            assertThat(warning).hasValueSatisfying(w -> assertThat(w)
                    .startsWith("populator: ZooKeeper nodes under /acl-open are world-writable")
                    .contains("/acl-open/lifecycle/control (cdrwa)", "zookeeper.auth.digest",
                            "TIDEMARK_ZOOKEEPER_AUTH_DIGEST")
                    .doesNotContain("\n"));
            assertThat(result.describe()).startsWith("WORLD-WRITABLE").contains("zookeeper.auth.digest");
        }
    }

    @Test
    void shouldSayNothingWhenADigestProtectsTheChroot() throws Exception {
        TidemarkConfig protectedConfig = config("/acl-digest", "tidemark:s3cret");
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(protectedConfig)) {
            populate(zk, protectedConfig);
            AclCheck.Result result = AclCheck.read(zk.client(), protectedConfig);
            assertThat(result.open()).as(result.toString()).isFalse();
            assertThat(result.digest()).isTrue();
            assertThat(result.checked()).isGreaterThanOrEqualTo(6);
            assertThat(result.warning("populator")).isEmpty();
            assertThat(result.describe()).doesNotContain("WORLD-WRITABLE");
        }
        // What a client without the digest (status, say) reads of it is the same: ACLs are readable by anyone.
        TidemarkConfig reader = config("/acl-digest", null);
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(reader)) {
            assertThat(zk.awaitConnected(Duration.ofSeconds(10))).isTrue();
            assertThat(AclCheck.read(zk.client(), reader).open()).isFalse();
        }
    }

    @Test
    void shouldStillWarnWhenTheDigestCameAfterTheNodesWereCreatedOpen() throws Exception {
        TidemarkConfig open = config("/acl-later", null);
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(open)) {
            populate(zk, open);
        }
        TidemarkConfig later = config("/acl-later", "tidemark:s3cret");
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(later)) {
            assertThat(zk.awaitConnected(Duration.ofSeconds(10))).isTrue();
            AclCheck.Result result = AclCheck.read(zk.client(), later);
            assertThat(result.open()).isTrue();
            assertThat(result.warning("object-processor")).hasValueSatisfying(w -> assertThat(w)
                    .contains("zookeeper.auth.digest is set, but", "created before"));
        }
    }
}
