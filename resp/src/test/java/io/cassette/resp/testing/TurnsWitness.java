package io.cassette.resp.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a big command on one connection while a second connection PINGs, to show the big one
 * works in turns: other clients are answered meanwhile instead of waiting for it.
 *
 * @param served PINGs answered while the big command's reply had not come
 * @param reply the big command's raw reply
 */
public record TurnsWitness(int served, String reply) {

  /** Sends {@code args} on {@code big} and PINGs on {@code witness} until its reply comes. */
  public static TurnsWitness whileRunning(RawClient big, RawClient witness, String... args)
      throws Exception {
    long t0 = System.nanoTime();
    big.command(args);
    CompletableFuture<String> reply = CompletableFuture.supplyAsync(() -> {
      try {
        return big.reply();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    int served = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!reply.isDone() && System.nanoTime() < deadline) {
      witness.command("PING");
      assertThat(witness.reply()).isEqualTo("+PONG\r\n");
      if (!reply.isDone()) {
        served++;
      }
    }
    String r = reply.get(120, TimeUnit.SECONDS);
    System.out.printf("%s: witness served %d times meanwhile, %d ms%n", args[0], served,
        (System.nanoTime() - t0) / 1_000_000);
    return new TurnsWitness(served, r);
  }
}
