package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TermAbortsTest {

    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final TransactionalPublisher publisher = new TransactionalPublisher(producer,
            TopicRegistry.from(new TidemarkConfig(Map.of())));
    private final PopulatorMetrics metrics = new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC());

    @BeforeEach
    void openATransaction() {
        producer.initTransactions();
        publisher.begin();
    }

    @Test
    void shouldAbortTheOpenTransactionAndRethrowTheCauseAsItIs() {
        TimeoutException cause = new TimeoutException("no answer");

        Exception thrown = new TermAborts(publisher, Duration.ZERO, metrics).afterError(cause);

        assertThat(thrown).isSameAs(cause);
        assertThat(producer.transactionAborted()).isTrue();
    }

    @Test
    void shouldCallAFencingAfterTheCoordinatorTimeoutATransactionThatTimedOut() {
        ProducerFencedException fenced = new ProducerFencedException("epoch bumped");

        Exception thrown = new TermAborts(publisher, Duration.ZERO, metrics).afterError(fenced);

        assertThat(thrown).isInstanceOf(TransactionTimedOutException.class).hasCause(fenced);
    }

    @Test
    void shouldLeaveAFencingWithinTheCoordinatorTimeoutAsAFencing() {
        ProducerFencedException fenced = new ProducerFencedException("another leader");

        Exception thrown = new TermAborts(publisher, Duration.ofHours(1), metrics).afterError(fenced);

        assertThat(thrown).isSameAs(fenced);
    }

    @Test
    void shouldGoOnWhenTheProducerCannotAbortAnyMore() {
        producer.fenceProducer();
        TimeoutException cause = new TimeoutException("no answer");

        assertThat(new TermAborts(publisher, Duration.ZERO, metrics).afterError(cause)).isSameAs(cause);
    }
}
