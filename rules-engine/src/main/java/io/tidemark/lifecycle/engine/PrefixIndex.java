package io.tidemark.lifecycle.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the rules that can apply to a key without looking at the others. Rules hang on a character trie at
 * the node their prefix spells; walking a key down the trie passes exactly the rules whose prefix the key
 * starts with. Rules with tags are further keyed by their first tag, so a rule is only a candidate when the
 * object carries that tag with that value. The cost of a lookup grows with the key's length and the object's
 * tags, not with the number of rules.
 */
final class PrefixIndex {

    private static final int[] NONE = new int[0];

    private final Node root;

    private PrefixIndex(Node root) {
        this.root = root;
    }

    static PrefixIndex of(List<CompiledRule> rules) {
        MutableNode root = new MutableNode();
        for (CompiledRule rule : rules) {
            MutableNode node = root;
            String prefix = rule.prefix();
            for (int i = 0; i < prefix.length(); i++) {
                node = node.children.computeIfAbsent(prefix.charAt(i), c -> new MutableNode());
            }
            if (rule.hasFirstTag()) {
                node.tagged.computeIfAbsent(rule.firstTagKey(), k -> new HashMap<>())
                        .computeIfAbsent(rule.firstTagValue(), v -> new ArrayList<>())
                        .add(rule.index());
            } else {
                node.untagged.add(rule.index());
            }
        }
        return new PrefixIndex(root.freeze());
    }

    /** Adds to {@code out} the index of every rule whose prefix and first tag fit the key and tags. */
    void collect(String key, Map<String, String> tags, Candidates out) {
        Node node = root;
        node.collect(tags, out);
        for (int i = 0; i < key.length(); i++) {
            node = node.child(key.charAt(i));
            if (node == null) {
                return;
            }
            node.collect(tags, out);
        }
    }

    /** A growable list of rule indexes, reused within one evaluation. */
    static final class Candidates {
        private int[] items = new int[8];
        private int size;

        void add(int[] indexes) {
            if (size + indexes.length > items.length) {
                items = Arrays.copyOf(items, Math.max(items.length * 2, size + indexes.length));
            }
            System.arraycopy(indexes, 0, items, size, indexes.length);
            size += indexes.length;
        }

        int size() {
            return size;
        }

        int get(int i) {
            return items[i];
        }
    }

    private static final class Node {
        private final char[] edges;
        private final Node[] children;
        private final int[] untagged;
        /** Tag key, then tag value, to the rules whose first tag that is; {@code null} when no rule here has tags. */
        private final Map<String, Map<String, int[]>> tagged;

        private Node(char[] edges, Node[] children, int[] untagged, Map<String, Map<String, int[]>> tagged) {
            this.edges = edges;
            this.children = children;
            this.untagged = untagged;
            this.tagged = tagged;
        }

        Node child(char c) {
            int at = Arrays.binarySearch(edges, c);
            return at < 0 ? null : children[at];
        }

        void collect(Map<String, String> tags, Candidates out) {
            if (untagged.length > 0) {
                out.add(untagged);
            }
            if (tagged != null && !tags.isEmpty()) {
                for (Map.Entry<String, Map<String, int[]>> byKey : tagged.entrySet()) {
                    String value = tags.get(byKey.getKey());
                    if (value != null) {
                        int[] rules = byKey.getValue().get(value);
                        if (rules != null) {
                            out.add(rules);
                        }
                    }
                }
            }
        }
    }

    private static final class MutableNode {
        private final TreeMap<Character, MutableNode> children = new TreeMap<>();
        private final List<Integer> untagged = new ArrayList<>();
        private final Map<String, Map<String, List<Integer>>> tagged = new HashMap<>();

        Node freeze() {
            char[] edges = new char[children.size()];
            Node[] frozen = new Node[children.size()];
            int i = 0;
            for (Map.Entry<Character, MutableNode> e : children.entrySet()) {
                edges[i] = e.getKey();
                frozen[i] = e.getValue().freeze();
                i++;
            }
            Map<String, Map<String, int[]>> tags = null;
            if (!tagged.isEmpty()) {
                tags = new HashMap<>();
                for (Map.Entry<String, Map<String, List<Integer>>> byKey : tagged.entrySet()) {
                    Map<String, int[]> byValue = new HashMap<>();
                    byKey.getValue().forEach((value, rules) -> byValue.put(value, toArray(rules)));
                    tags.put(byKey.getKey(), Map.copyOf(byValue));
                }
                tags = Map.copyOf(tags);
            }
            return new Node(edges, frozen, untagged.isEmpty() ? NONE : toArray(untagged), tags);
        }

        private static int[] toArray(List<Integer> values) {
            return values.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
