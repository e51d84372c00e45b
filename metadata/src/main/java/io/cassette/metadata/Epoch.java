package io.cassette.metadata;

/**
 * A point in the linear history of cluster metadata: the number of transformations applied
 * since the empty metadata (epoch 0). Epochs are contiguous (rejected transformations do not
 * consume one), so "behind by N" means exactly N entries are missing.
 */
public record Epoch(long value) implements Comparable<Epoch> {
    public static final Epoch EMPTY = new Epoch(0);

    public Epoch {
        if (value < 0) throw new IllegalArgumentException("epoch: " + value + " (expected: >= 0)");
    }

    public static Epoch of(long value) {
        return value == 0 ? EMPTY : new Epoch(value);
    }

    public Epoch next() {
        return new Epoch(value + 1);
    }

    public boolean isAfter(Epoch other) {
        return value > other.value;
    }

    @Override
    public int compareTo(Epoch other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return "epoch " + value;
    }
}
