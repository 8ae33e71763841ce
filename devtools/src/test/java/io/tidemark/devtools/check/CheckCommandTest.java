package io.tidemark.devtools.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** What {@code tidemark check} refuses before it starts anything. */
class CheckCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void shouldRefuseAnOperationAmongTheFaultKinds() {
        assertThat(run("check", "--fault-kinds", "CLOCK_SKEW,PUT")).isEqualTo(2);
        assertThat(err.toString()).contains("--fault-kinds takes faults only").contains("PUT");
    }

    @Test
    void shouldRefuseToSkewClocksOfServicesRunAsProcesses() {
        assertThat(run("check", "--processes", "--fault-kinds", "CLOCK_SKEW")).isEqualTo(2);
        assertThat(err.toString()).contains("CLOCK_SKEW").contains("--processes");
    }

    @Test
    void shouldRefuseFilerFaultsWithASingleFiler() {
        assertThat(run("check", "--fault-kinds", "FILER_STOP")).isEqualTo(2);
        assertThat(err.toString()).contains("filer faults need several filers");
    }

    @Test
    void shouldRefuseAClusterWithoutFilers() {
        assertThat(run("check", "--filers", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--filers is at least 1");
    }
}
