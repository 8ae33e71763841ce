package io.tidemark.zookeeper;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What operators have set at one moment: a pause of the whole cluster, and per bucket a pause or a dry run. A bucket
 * both paused and in dry run is paused: nothing at all happens to it, not even a recorded dry-run action.
 *
 * @param clusterPause the cluster's pause, or empty
 * @param paused       paused buckets
 * @param dryRun       buckets in dry run
 * @param owedWalks    buckets whose tasks were only recorded (paused, or in dry run): each is owed a recovery walk
 *                     once it is neither paused nor in dry run, which the object processors send
 */
public record Controls(@JsonIgnore Optional<ControlFlag> clusterPause, Map<String, ControlFlag> paused,
                       Map<String, ControlFlag> dryRun, Map<String, ControlFlag> owedWalks) {

    public static final Controls NONE = new Controls(Optional.empty(), Map.of(), Map.of(), Map.of());

    public Controls {
        paused = Map.copyOf(paused);
        dryRun = Map.copyOf(dryRun);
        owedWalks = Map.copyOf(owedWalks);
    }

    /** The cluster's pause or null, as JSON reports show it. */
    @JsonProperty("clusterPause")
    ControlFlag clusterPauseOrNull() {
        return clusterPause.orElse(null);
    }

    /** Whether the bucket's actions wait: it is paused, or the whole cluster is. */
    public boolean paused(String bucket) {
        return clusterPause.isPresent() || paused.containsKey(bucket);
    }

    /** Whether the bucket's actions are only recorded, not carried out (and it is not paused). */
    public boolean dryRun(String bucket) {
        return !paused(bucket) && dryRun.containsKey(bucket);
    }

    /** Whether the bucket's tasks run for real now: it is not paused, the cluster is not, and it is not in dry run. */
    public boolean acting(String bucket) {
        return !paused(bucket) && !dryRun.containsKey(bucket);
    }

    /** Whether anything at all is set. */
    public boolean any() {
        return clusterPause.isPresent() || !paused.isEmpty() || !dryRun.isEmpty() || !owedWalks.isEmpty();
    }

    /** The buckets owed a walk in name order, for reports. */
    public Map<String, ControlFlag> owedWalksByName() {
        return new TreeMap<>(owedWalks);
    }

    /** The paused buckets in name order, for reports. */
    public Map<String, ControlFlag> pausedByName() {
        return new TreeMap<>(paused);
    }

    /** The buckets in dry run in name order, for reports. */
    public Map<String, ControlFlag> dryRunByName() {
        return new TreeMap<>(dryRun);
    }
}
