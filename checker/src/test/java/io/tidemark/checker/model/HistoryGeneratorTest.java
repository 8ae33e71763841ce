package io.tidemark.checker.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tidemark.lifecycle.engine.RuleReader;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HistoryGeneratorTest {

    private final HistoryGenerator generator = new HistoryGenerator(2, 2_000, HistoryGenerator.faultKinds(true));

    @Test
    void shouldMakeTheSameHistoryFromTheSameSeed() {
        assertThat(generator.generate(42, 80, 5)).isEqualTo(generator.generate(42, 80, 5));
        assertThat(generator.generate(42, 80, 5)).isNotEqualTo(generator.generate(43, 80, 5));
    }

    @Test
    void shouldWeaveTheFaultsAmongTheOperationsAndNumberEveryStep() {
        History history = generator.generate(7, 60, 6);

        assertThat(history.faults()).isEqualTo(6);
        assertThat(history.steps()).hasSize(66);
        for (int i = 0; i < history.steps().size(); i++) {
            assertThat(history.steps().get(i).index()).isEqualTo(i);
        }
    }

    @Test
    void shouldReachEveryKindOfStepOverAFewSeeds() {
        Set<Step.Kind> seen = EnumSet.noneOf(Step.Kind.class);
        for (long seed = 0; seed < 10; seed++) {
            generator.generate(seed, 200, 8).steps().forEach(s -> seen.add(s.kind()));
        }
        assertThat(seen).containsExactlyInAnyOrder(Step.Kind.values());
    }

    @Test
    void shouldDrawOnlyConfigurationsTheEngineAcceptsAndEveryRuleKind() {
        Random random = new Random(1);
        Set<RuleCatalog.RuleKind> kinds = EnumSet.noneOf(RuleCatalog.RuleKind.class);
        for (int i = 0; i < 300; i++) {
            String xml = RuleCatalog.randomConfiguration(random, 3);
            kinds.addAll(RuleCatalog.kinds(xml));
            assertThatCode(() -> RuleReader.aws().read(xml)).as(xml).doesNotThrowAnyException();
        }
        assertThat(kinds).containsExactlyInAnyOrder(RuleCatalog.RuleKind.values());
    }

    @Test
    void shouldSumAConfigurationUpByItsRulesAndDays() {
        String xml = "<LifecycleConfiguration>" + RuleCatalog.rule(RuleCatalog.RuleKind.NONCURRENT, 0, 2)
                + RuleCatalog.rule(RuleCatalog.RuleKind.EXPIRED_MARKER, 1, 1) + "</LifecycleConfiguration>";

        assertThat(RuleCatalog.summary(xml)).isEqualTo("NONCURRENT 2d, EXPIRED_MARKER");
    }
}
