package io.cassette.resp.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A pure-Java mutation fuzzer for the RESP door, seeded with real traffic (what Jedis,
 * Lettuce and redis-cli send: multibulk commands, RESP3 HELLO, inline commands, pipelines).
 * Mutations flip bits, insert, delete, duplicate and splice bytes, and plant the tokens that
 * break parsers (huge and negative lengths, NUL, lone CR/LF, quotes). Guidance without
 * instrumentation: an input whose outcome (see {@link #keep}) was never seen joins the corpus,
 * so inputs reaching new decoder states are mutated further. Deterministic for a seed.
 */
public final class RespFuzzer {
  /** Real traffic. No CONFIG, SHUTDOWN or DEBUG: the door must survive data, not operators. */
  private static final String[] SEEDS = {
      "*1\r\n$4\r\nPING\r\n",
      "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n",
      "*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n",
      "*5\r\n$5\r\nHELLO\r\n$1\r\n3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$3\r\npwd\r\n",
      "*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n",
      "*4\r\n$6\r\nCLIENT\r\n$7\r\nSETINFO\r\n$8\r\nLIB-NAME\r\n$5\r\njedis\r\n",
      "*4\r\n$5\r\nRPUSH\r\n$4\r\nlist\r\n$1\r\na\r\n$1\r\nb\r\n",
      "*4\r\n$6\r\nLRANGE\r\n$4\r\nlist\r\n$1\r\n0\r\n$2\r\n-1\r\n",
      "*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n",
      "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$3\r\n1.5\r\n$1\r\nm\r\n",
      "*2\r\n$4\r\nKEYS\r\n$3\r\na*b\r\n",
      "*6\r\n$4\r\nSCAN\r\n$1\r\n0\r\n$5\r\nMATCH\r\n$3\r\n*a?\r\n$5\r\nCOUNT\r\n$3\r\n100\r\n",
      "*4\r\n$8\r\nSETRANGE\r\n$1\r\nk\r\n$2\r\n10\r\n$1\r\nx\r\n",
      "*4\r\n$8\r\nGETRANGE\r\n$1\r\nk\r\n$1\r\n0\r\n$2\r\n-1\r\n",
      "*1\r\n$5\r\nMULTI\r\n*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n*1\r\n$4\r\nEXEC\r\n",
      "*2\r\n$10\r\nPSUBSCRIBE\r\n$3\r\nch*\r\n",
      "PING\r\n",
      "SET a \"b c\\x41\\n\" 'd'\r\n",
      "ECHO hello\n",
      "*2\r\n$4\r\nECHO\r\n$0\r\n\r\n*1\r\n$4\r\nPING\r\n*1\r\n$4\r\nPING\r\n",
      "*3\r\n$4\r\nMGET\r\n$1\r\na\r\n$1\r\nb\r\n",
  };
  private static final String[] TOKENS = {
      "\0", "\r", "\n", "\r\n", "*", "$", "\"", "'", "\\x", "*-1\r\n", "$-1\r\n", "*0\r\n",
      "$0\r\n", "*2147483648\r\n", "$2147483647\r\n", "$15000000\r\n", "*1048577\r\n",
      "$9223372036854775807\r\n", "*99999999999999999999\r\n", "$00\r\n", "*+1\r\n", " ",
      "9223372036854775807", "-9223372036854775808", "\u0016\u0003\u0001",
  };

  private final Random random;
  private final List<byte[]> corpus = new ArrayList<>();
  private final Set<String> seen = new HashSet<>();

  public RespFuzzer(long seed) {
    random = new Random(seed);
    for (String s : SEEDS) {
      corpus.add(s.getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  /** The next input: a corpus entry with one to eight mutations. */
  public byte[] next() {
    byte[] in = corpus.get(random.nextInt(corpus.size()));
    int rounds = 1 + random.nextInt(8);
    for (int i = 0; i < rounds; i++) {
      in = mutate(in);
    }
    return in;
  }

  /** Random points at which to split {@code input} into the chunks a socket delivers. */
  public int[] cuts(byte[] input) {
    int n = random.nextInt(Math.min(input.length, 6) + 1);
    int[] cuts = new int[n];
    for (int i = 0; i < n; i++) {
      cuts[i] = random.nextInt(input.length + 1);
    }
    java.util.Arrays.sort(cuts);
    return cuts;
  }

  /** Feedback: keeps {@code input} in the corpus when its {@code outcome} is new. */
  public boolean keep(byte[] input, String outcome) {
    if (seen.add(outcome) && input.length < 4096) {
      corpus.add(input);
      return true;
    }
    return false;
  }

  public int corpusSize() {
    return corpus.size();
  }

  private byte[] mutate(byte[] in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = in.length == 0 ? 0 : random.nextInt(in.length + 1);
    switch (random.nextInt(7)) {
      case 0 -> { // flip a bit
        if (in.length == 0) {
          return token();
        }
        byte[] copy = in.clone();
        int i = random.nextInt(copy.length);
        copy[i] ^= (byte) (1 << random.nextInt(8));
        return copy;
      }
      case 1 -> { // random byte
        out.write(in, 0, at);
        out.write(random.nextInt(256));
        out.write(in, at, in.length - at);
      }
      case 2 -> { // delete a run
        int len = in.length - at == 0 ? 0 : 1 + random.nextInt(Math.min(16, in.length - at));
        out.write(in, 0, at);
        out.write(in, at + len, in.length - at - len);
      }
      case 3 -> { // plant a token
        out.write(in, 0, at);
        out.writeBytes(token());
        out.write(in, at, in.length - at);
      }
      case 4 -> { // splice with another corpus entry
        byte[] other = corpus.get(random.nextInt(corpus.size()));
        int from = other.length == 0 ? 0 : random.nextInt(other.length);
        out.write(in, 0, at);
        out.write(other, from, other.length - from);
      }
      case 5 -> { // duplicate (pipelines)
        out.writeBytes(in);
        out.write(in, 0, at);
      }
      default -> { // change a number
        String s = new String(in, StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[0-9]+").matcher(s);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
          spans.add(new int[] {m.start(), m.end()});
        }
        if (spans.isEmpty()) {
          return token();
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String[] numbers = {"0", "-1", "1", "2147483647", "4294967296", "65537", "1048576",
            "9223372036854775807", Integer.toString(random.nextInt(100000))};
        return (s.substring(0, span[0]) + numbers[random.nextInt(numbers.length)]
            + s.substring(span[1])).getBytes(StandardCharsets.ISO_8859_1);
      }
    }
    return out.toByteArray();
  }

  private byte[] token() {
    return TOKENS[random.nextInt(TOKENS.length)].getBytes(StandardCharsets.ISO_8859_1);
  }
}
