package io.tidemark.devtools.cluster;

import io.tidemark.localcluster.LocalCluster;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "local-cluster", mixinStandardHelpOptions = true,
        description = {"Runs a single-node Kafka (KRaft), a ZooKeeper server and the filer emulator on this machine.",
            "Prints the settings as TIDEMARK_...=value lines (eval-able in a shell), then READY, and runs until SIGTERM."})
public final class LocalClusterCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--data-dir", description = "Keep all data here, and come back to it on restart (default: temporary).")
    private Path dataDir;

    @Option(names = "--child-processes", description = "Run Kafka and ZooKeeper as child JVMs instead of in this one.")
    private boolean childProcesses;

    @Option(names = "--kafka-port", defaultValue = "0", description = "Kafka client port (default: a free one).")
    private int kafkaPort;

    @Option(names = "--zookeeper-port", defaultValue = "0", description = "ZooKeeper client port (default: a free one).")
    private int zookeeperPort;

    @Option(names = "--filer-port", defaultValue = "0", description = "Emulated filer gRPC port (default: a free one).")
    private int filerPort;

    @Option(names = "--s3-grpc-port", defaultValue = "0", description = "Emulated S3 gRPC port (default: a free one).")
    private int s3GrpcPort;

    @Override
    public Integer call() throws InterruptedException {
        LocalCluster cluster = LocalCluster.builder()
                .mode(childProcesses ? LocalCluster.Mode.CHILD_PROCESSES : LocalCluster.Mode.IN_PROCESS)
                .dataDir(dataDir).kafkaPort(kafkaPort).zookeeperPort(zookeeperPort)
                .emulatorPorts(filerPort, s3GrpcPort)
                .start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            stopped.countDown();
        }, "local-cluster-shutdown"));
        cluster.environment().forEach((name, value) -> spec.commandLine().getOut().println(name + "=" + value));
        spec.commandLine().getErr().println("local cluster started in " + cluster.startupTime().toMillis() + " ms");
        spec.commandLine().getOut().println("READY");
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }
}
