package io.cassette.coordinator.ring;
import io.cassette.storage.Mutation;
/** Where the coordinator leaves writes a replica could not take (hinted handoff, issue 16). */
public interface HintSink {
  HintSink NONE = (target, mutation) -> false;
  /** Stores a hint for {@code target}; false when not stored (window passed, hints full, disabled). */
  boolean store(Endpoint target, Mutation mutation);
}
