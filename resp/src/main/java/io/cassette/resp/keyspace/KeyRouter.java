package io.cassette.resp.keyspace;

/**
 * Which node runs a key's commands. On one node: this one, always. On a ring, active expiry
 * (run by the node owning an expiry bucket) hands a due key to the node executing that key,
 * so deleting it never races the key's own commands there.
 */
public interface KeyRouter {
  /** One node: every key is executed here. */
  KeyRouter LOCAL = new KeyRouter() {
    @Override
    public boolean executesHere(byte[] key) {
      return true;
    }

    @Override
    public void expireElsewhere(int db, byte[] key) {
      throw new IllegalStateException("every key is executed here");
    }
  };

  /** Whether this node runs {@code key}'s commands. */
  boolean executesHere(byte[] key);

  /**
   * Whether active expiry deletes {@code key} itself in its pass; false hands it to
   * {@link #expireElsewhere} (a ring whose writes are fenced per key).
   */
  default boolean expiresHere(byte[] key) {
    return executesHere(key);
  }

  /** Asks the node executing {@code key} of database {@code db} to delete it if its TTL passed. */
  void expireElsewhere(int db, byte[] key);
}
