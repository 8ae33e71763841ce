package io.tidemark.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnedResourcesTest {

    private final List<String> closed = new ArrayList<>();

    private AutoCloseable resource(String name) {
        return () -> closed.add(name);
    }

    @Test
    void shouldCloseInTheReverseOrderOfAcquiring() {
        OwnedResources owned = new OwnedResources("test");
        owned.own("admin", resource("admin"));
        owned.own("zookeeper", resource("zookeeper"));
        owned.own("producer", resource("producer"));
        owned.close();
        assertThat(closed).containsExactly("producer", "zookeeper", "admin");
    }

    @Test
    void shouldCloseTheOthersWhenOneFailsToClose() {
        OwnedResources owned = new OwnedResources("test");
        owned.own("first", resource("first"));
        owned.own("failing", () -> {
            throw new IllegalStateException("boom");
        });
        owned.own("last", resource("last"));
        owned.close();
        assertThat(closed).containsExactly("last", "first");
    }

    @Test
    void shouldCloseEachResourceOnceHoweverOftenItIsClosed() {
        OwnedResources owned = new OwnedResources("test");
        owned.own("only", resource("only"));
        owned.close();
        owned.close();
        assertThat(closed).containsExactly("only");
    }

    @Test
    void shouldCloseAtOnceWhatIsOwnedAfterClosing() {
        OwnedResources owned = new OwnedResources("test");
        owned.close();
        AutoCloseable late = resource("late");
        assertThat(owned.own("late", late)).isSameAs(late);
        assertThat(closed).containsExactly("late");
    }
}
