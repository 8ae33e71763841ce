package io.tidemark.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CloseTogetherTest {

    @Test
    void shouldCloseEveryPartAtTheSameTime() {
        // Each part finishes closing only once the other has begun: closed one after the other, neither would.
        CountDownLatch bothClosing = new CountDownLatch(2);
        AtomicBoolean sawTheOther = new AtomicBoolean(true);
        AutoCloseable part = () -> {
            bothClosing.countDown();
            if (!bothClosing.await(10, TimeUnit.SECONDS)) {
                sawTheOther.set(false);
            }
        };
        Map<String, AutoCloseable> parts = new LinkedHashMap<>();
        parts.put("first", part);
        parts.put("second", part);

        CloseTogether.close("test", parts);

        assertThat(bothClosing.getCount()).isZero();
        assertThat(sawTheOther).isTrue();
    }

    @Test
    void shouldCloseTheOthersWhenOnePartFails() {
        AtomicBoolean closed = new AtomicBoolean();
        Map<String, AutoCloseable> parts = new LinkedHashMap<>();
        parts.put("broken", () -> {
            throw new IllegalStateException("cannot close");
        });
        parts.put("sound", () -> closed.set(true));

        CloseTogether.close("test", parts);

        assertThat(closed).isTrue();
    }

    @Test
    void shouldReturnOnlyWhenEveryPartHasClosed() {
        AtomicBoolean slowClosed = new AtomicBoolean();
        Map<String, AutoCloseable> parts = new LinkedHashMap<>();
        parts.put("quick", () -> { });
        parts.put("slow", () -> {
            Thread.sleep(200);
            slowClosed.set(true);
        });

        CloseTogether.close("test", parts);

        assertThat(slowClosed).isTrue();
    }
}
