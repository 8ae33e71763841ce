package io.tidemark.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ManagedServiceTest {

    static final class Probe extends ManagedService {
        final AtomicInteger starts = new AtomicInteger();
        final AtomicInteger stops = new AtomicInteger();
        volatile boolean failStart;
        volatile boolean caughtUp = true;

        Probe() {
            super("probe");
        }

        @Override
        protected void doStart() {
            starts.incrementAndGet();
            if (failStart) {
                throw new IllegalStateException("boom");
            }
        }

        @Override
        protected void doStop() {
            stops.incrementAndGet();
        }

        @Override
        protected boolean readinessCheck() {
            return caughtUp;
        }
    }

    @Test
    void shouldStartOnceAndCloseIdempotently() {
        Probe p = new Probe();
        assertThat(p.ready()).isFalse();
        p.start();
        assertThat(p.state()).isEqualTo(ServiceState.RUNNING);
        assertThat(p.ready()).isTrue();
        assertThatThrownBy(p::start).hasMessageContaining("more than once");
        p.close();
        p.close();
        assertThat(p.state()).isEqualTo(ServiceState.STOPPED);
        assertThat(p.stops).hasValue(1);
        assertThat(p.ready()).isFalse();
        assertThat(p.live()).isTrue();
    }

    @Test
    void shouldReportNotReadyWhileItsOwnCheckFails() {
        Probe p = new Probe();
        p.start();
        p.caughtUp = false;
        assertThat(p.ready()).isFalse();
        assertThat(p.live()).isTrue();
    }

    @Test
    void shouldRememberAFailedStartAndReleaseWhatItStarted() {
        Probe p = new Probe();
        p.failStart = true;
        assertThatThrownBy(p::start).hasMessageContaining("failed to start");
        assertThat(p.state()).isEqualTo(ServiceState.FAILED);
        assertThat(p.live()).isFalse();
        assertThat(p.stops).hasValue(1);
        p.close();
        assertThat(p.stops).hasValue(1);
    }

    @Test
    void shouldGoDownOnAFailureWhileRunning() {
        Probe p = new Probe();
        p.start();
        p.fail(new RuntimeException("lost the broker"));
        assertThat(p.live()).isFalse();
        assertThat(p.failure()).hasMessage("lost the broker");
        assertThat(p.stops).hasValue(1);
    }
}
