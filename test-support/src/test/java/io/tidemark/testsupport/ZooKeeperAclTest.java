package io.tidemark.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

/**
 * With {@code zookeeper.auth.digest} set, what Tidemark creates belongs to that identity: a client without the
 * credentials can read the bucket registry but neither change nor delete it.
 */
@LocalClusterTest
class ZooKeeperAclTest {

    @Test
    void shouldKeepTheRegistryToTheConfiguredIdentityWhenDigestAuthIsSet(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String chroot = ns.zookeeperChroot() + "-acl";
        TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", chroot, "zookeeper.auth.digest", "tidemark:s3cret"));
        String node = ZooKeeperPaths.bucket("photos");
        try (ZooKeeperConnection owner = ZooKeeperConnection.start(config);
             ZooKeeperConnection stranger = ZooKeeperConnection.start(cluster.zookeeperConnect(), chroot.substring(1),
                     Duration.ofSeconds(10), Duration.ofSeconds(5), null);
             ZooKeeperConnection colleague = ZooKeeperConnection.start(cluster.zookeeperConnect(), chroot.substring(1),
                     Duration.ofSeconds(10), Duration.ofSeconds(5), new Password("tidemark:s3cret"))) {
            owner.client().create().creatingParentsIfNeeded().forPath(node, "{}".getBytes(StandardCharsets.UTF_8));

            assertThat(stranger.client().getData().forPath(node)).asString(StandardCharsets.UTF_8).isEqualTo("{}");
            assertThatThrownBy(() -> stranger.client().setData().forPath(node, "x".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> stranger.client().delete().forPath(node))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> stranger.client().create().forPath(ZooKeeperPaths.bucket("intruder")))
                    .isInstanceOf(KeeperException.NoAuthException.class);

            colleague.client().setData().forPath(node, "{\"v\":2}".getBytes(StandardCharsets.UTF_8));
            assertThat(owner.client().getData().forPath(node)).asString(StandardCharsets.UTF_8).isEqualTo("{\"v\":2}");
        }
    }
}
