package io.cassette.resp.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RespFuzzer;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the decoder with {@link RespFuzzer}: whatever the input and however it is split,
 * the decoder emits only requests and at most one protocol error (never throws), keeps no
 * more unconsumed bytes than one line may have, holds budget only for bytes that arrived,
 * and gives every byte back. Short form here; {@code -Pslow} runs a million inputs.
 */
class RespDecoderFuzzTest {
  private static final RespLimits LIMITS = new RespLimits(1 << 20, 4096, 1024);

  @Test
  @Timeout(60)
  void tenThousandInputs() {
    fuzz(1, 10_000);
  }

  @Test
  @Tag("slow")
  @Timeout(1800)
  void aMillionInputs() {
    fuzz(System.nanoTime(), 1_000_000);
  }

  private static void fuzz(long seed, int inputs) {
    RespFuzzer fuzzer = new RespFuzzer(seed);
    for (int i = 0; i < inputs; i++) {
      byte[] input = fuzzer.next();
      String outcome = decode(input, fuzzer.cuts(input), i % 3 == 0, seed, i);
      fuzzer.keep(input, outcome);
    }
    assertThat(fuzzer.corpusSize()).isGreaterThan(21); // feedback found new behaviour
  }

  /** Decodes one input; returns a summary of what happened (the fuzzer's feedback). */
  private static String decode(byte[] input, int[] cuts, boolean unauthenticated, long seed,
                               int index) {
    String what = "seed " + seed + " input " + index + ": " + Arrays.toString(input);
    RequestBudget budget = new RequestBudget(8L << 20);
    RespDecoder decoder = new RespDecoder(() -> LIMITS, budget, !unauthenticated);
    EmbeddedChannel ch = new EmbeddedChannel(decoder);
    long requestBytes = 0;
    int requests = 0;
    String error = "";
    int from = 0;
    int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
    ends[cuts.length] = input.length;
    for (int end : ends) {
      if (end > from) {
        ch.writeInbound(Unpooled.wrappedBuffer(input, from, end - from)); // throws if it fails
        from = end;
      }
      Object o;
      while ((o = ch.readInbound()) != null) {
        assertThat(error).as(what + " output after a protocol error").isEmpty();
        if (o instanceof Request r) {
          requests++;
          requestBytes += r.budgetBytes();
          assertThat(r.size()).as(what).isPositive();
        } else {
          error = ((ProtocolError) o).message();
        }
      }
      assertThat(decoder.buffered()).as(what + " unconsumed bytes")
          .isLessThanOrEqualTo(LIMITS.maxInlineLength() + 2);
      assertThat(decoder.held()).as(what + " held beyond what arrived")
          .isLessThanOrEqualTo(2L * from + 4096 + 64);
      assertThat(budget.used()).as(what + " budget accounting")
          .isEqualTo(requestBytes + decoder.held());
    }
    ch.finishAndReleaseAll();
    budget.release(requestBytes);
    assertThat(budget.used()).as(what + " budget after close").isZero();
    return Math.min(requests, 3) + "|" + error + "|" + unauthenticated;
  }
}
