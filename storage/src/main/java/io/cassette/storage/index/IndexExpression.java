package io.cassette.storage.index;

/**
 * One restriction an index answers: terms between {@code lower} and {@code upper} (null: no
 * bound), each bound inclusive or not. Equality is both bounds on the same term.
 */
public record IndexExpression(String index, byte[] lower, boolean lowerInclusive, byte[] upper,
                              boolean upperInclusive) {
  public static IndexExpression eq(String index, byte[] term) {
    return new IndexExpression(index, term, true, term, true);
  }

  boolean admits(byte[] term) {
    if (lower != null) {
      int c = io.cassette.storage.Bytes.compare(term, lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    return !pastUpper(term);
  }

  boolean pastUpper(byte[] term) {
    if (upper == null) {
      return false;
    }
    int c = io.cassette.storage.Bytes.compare(term, upper);
    return c > 0 || (c == 0 && !upperInclusive);
  }
}
