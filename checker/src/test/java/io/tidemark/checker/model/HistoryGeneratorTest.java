package io.tidemark.checker.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.lifecycle.engine.RuleReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
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
    void shouldReachEveryKindOfStepOverAFewSeedsWithSeveralFilers() {
        HistoryGenerator threeFilers = new HistoryGenerator(2, 2_000, HistoryGenerator.faultKinds(true, 3), 3);
        Set<Step.Kind> seen = EnumSet.noneOf(Step.Kind.class);
        for (long seed = 0; seed < 10; seed++) {
            threeFilers.generate(seed, 200, 8, 6).steps().forEach(s -> seen.add(s.kind()));
        }
        // A paused conductor is only ever named (a directed history, --fault-kinds): drawn, it would report what only
        // steady walks serve as late, rightly.
        assertThat(seen).isEqualTo(EnumSet.complementOf(EnumSet.of(Step.Kind.CONDUCTOR_PAUSED)));
    }

    /**
     * A seed names a history in reports and regression tests: adding filer faults must not change a one-filer history.
     * The digests are of the histories the generator made before filer faults existed (commit 1a8723d).
     */
    @Test
    void shouldMakeTheSameOneFilerHistoriesAsBeforeFilerFaultsExisted() throws Exception {
        HistoryGenerator withClusterFaults = generator;
        HistoryGenerator withoutClusterFaults = new HistoryGenerator(2, 2_000, HistoryGenerator.faultKinds(false));

        assertThat(digest(withoutClusterFaults.generate(5, 60, 6)))
                .isEqualTo("8b1bac14aa9309d304be349d93b8f5c35d8340bb5d61c92d8151b32d5cdd80eb");
        assertThat(digest(withoutClusterFaults.generate(908, 60, 6)))
                .isEqualTo("be9fd67ac45ccdb03a3ddb0267a252f97dd6a7fefd90fabc78454cfd32a378b8");
        assertThat(digest(withClusterFaults.generate(100, 60, 6)))
                .isEqualTo("5b5176f97ffd369e01b3418c6e8d7f53ea3be8b2445ecbd67b7d2772be6410f1");
    }

    @Test
    void shouldDrawFilerFaultsOnlyWhenThereAreSeveralFilers() {
        assertThat(HistoryGenerator.faultKinds(true, 1)).noneMatch(Step.Kind::filerFault)
                .isEqualTo(HistoryGenerator.faultKinds(true));
        assertThat(HistoryGenerator.faultKinds(false, 3)).contains(Step.Kind.FILER_STOP, Step.Kind.FILER_CLOCK_SKEW);
        assertThatThrownBy(() -> new HistoryGenerator(2, 2_000, List.of(Step.Kind.FILER_STOP), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("several filers");
    }

    @Test
    void shouldStopOnlyPeerFilersAndSetFilerClocksOffByLessThanThePopulatorAllows() {
        HistoryGenerator threeFilers = new HistoryGenerator(2, 2_000,
                List.of(Step.Kind.FILER_STOP, Step.Kind.FILER_CLOCK_SKEW), 3);
        Set<Integer> stopped = new TreeSet<>();
        Set<Integer> skewed = new TreeSet<>();
        for (long seed = 0; seed < 20; seed++) {
            for (Step step : threeFilers.generate(seed, 20, 10).steps()) {
                if (step.kind() == Step.Kind.FILER_STOP) {
                    stopped.add(step.filer());
                    assertThat(step.number()).as(step.toString()).isBetween(1_000L, 4_000L);
                } else if (step.kind() == Step.Kind.FILER_CLOCK_SKEW) {
                    skewed.add(step.filer());
                    assertThat(Math.abs(step.skewMillis())).as(step.toString()).isBetween(50L, 399L);
                }
            }
        }
        assertThat(stopped).containsExactly(1, 2);
        assertThat(skewed).containsExactly(0, 1, 2);
    }

    private static String digest(History history) throws Exception {
        StringBuilder text = new StringBuilder();
        history.steps().forEach(step -> text.append(step).append('|').append(step.arg()).append('\n'));
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.toString().getBytes(StandardCharsets.UTF_8)));
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

    @Test
    void shouldKeepTheSeedsHistoryAndInsertTheChangesAmongIt() {
        History plain = generator.generate(11, 60, 4);
        History changed = generator.generate(11, 60, 4, 5);

        assertThat(generator.generate(11, 60, 4, 0)).isEqualTo(plain);
        List<String> without = changed.steps().stream().map(HistoryGeneratorTest::withoutIndex).toList();
        List<String> planned = plain.steps().stream().map(HistoryGeneratorTest::withoutIndex).toList();
        assertThat(without).as("the operations and faults the seed made, in their order")
                .containsSubsequence(planned);
        assertThat(changed.steps().size()).isGreaterThanOrEqualTo(plain.steps().size() + 5);
        for (int i = 0; i < changed.steps().size(); i++) {
            assertThat(changed.steps().get(i).index()).isEqualTo(i);
        }
    }

    private static String withoutIndex(Step s) {
        return s.kind() + "|" + s.bucket() + "|" + s.key() + "|" + s.arg() + "|" + s.number();
    }

    @Test
    void shouldRenameAndReorderTheRulesOfAConfigurationKeepingWhatTheyAre() throws Exception {
        Random random = new Random(3);
        String drawn = RuleCatalog.randomConfiguration(random, 2);
        while (RuleCatalog.kinds(drawn).size() < 3) {
            drawn = RuleCatalog.randomConfiguration(random, 2);
        }
        String xml = drawn;
        String renamed = RuleCatalog.renamed(xml, 4242);

        assertThat(renamed).isNotEqualTo(xml);
        assertThat(RuleCatalog.kinds(renamed)).containsExactlyInAnyOrderElementsOf(RuleCatalog.kinds(xml));
        var reader = new RuleReader(io.tidemark.lifecycle.config.ValidationMode.SEAWEEDFS,
                io.tidemark.lifecycle.engine.LifecycleCalendar.of(io.tidemark.lifecycle.engine.DuePolicy.EXACT,
                        java.time.Duration.ofSeconds(2)));
        var before = reader.read(xml).rules().stream().map(r -> r.hash().toHex()).sorted().toList();
        var after = reader.read(renamed).rules().stream().map(r -> r.hash().toHex()).sorted().toList();
        assertThat(after).as("the same rules by content").isEqualTo(before);
        assertThat(reader.read(renamed).rules().stream().map(r -> r.id()))
                .noneMatch(id -> xml.contains("<ID>" + id + "</ID>"));
    }
}
