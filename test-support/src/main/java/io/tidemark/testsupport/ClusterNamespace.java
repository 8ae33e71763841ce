package io.tidemark.testsupport;

/**
 * What keeps one test class's state apart on a shared cluster: a topic prefix and a ZooKeeper chroot of its own.
 */
public record ClusterNamespace(String topicPrefix, String zookeeperChroot) {

    static ClusterNamespace forClass(Class<?> testClass) {
        String id = Integer.toHexString(testClass.getName().hashCode() & 0x7fffffff) + "-"
                + Long.toHexString(System.nanoTime() & 0xffffff);
        return new ClusterNamespace("t" + id + ".", "/tidemark-test-" + id);
    }
}
