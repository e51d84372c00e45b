package io.cassette.server.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DerivedValueTest {
  @Test
  void aValueIsComputedOnceUntilTheStateChanges() {
    AtomicInteger computed = new AtomicInteger();
    DerivedValue<Integer> v = new DerivedValue<>(computed::incrementAndGet);
    assertThat(v.get()).isEqualTo(1);
    assertThat(v.get()).isEqualTo(1);
    v.invalidate();
    assertThat(v.get()).isEqualTo(2);
    assertThat(computed.get()).isEqualTo(2);
  }

  /** A peer comes UP while the ring is being computed from the old liveness: the next get sees it. */
  @Test
  void aChangeDuringTheComputationIsNotLost() {
    AtomicReference<String> state = new AtomicReference<>("DOWN");
    AtomicReference<DerivedValue<String>> ref = new AtomicReference<>();
    AtomicInteger calls = new AtomicInteger();
    DerivedValue<String> v = new DerivedValue<>(() -> {
      String seen = state.get();
      if (calls.incrementAndGet() == 1) {
        // The failure detector's listener runs between the read and the store.
        state.set("UP");
        ref.get().invalidate();
      }
      return seen;
    });
    ref.set(v);
    assertThat(v.get()).isEqualTo("DOWN"); // what was read, as any caller racing the change
    assertThat(v.get()).isEqualTo("UP");
    assertThat(v.get()).isEqualTo("UP");
    assertThat(calls.get()).isEqualTo(2);
  }
}
