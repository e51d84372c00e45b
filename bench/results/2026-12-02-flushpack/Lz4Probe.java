import java.lang.management.ManagementFactory;
import java.util.Random;
public class Probe {
  public static void main(String[] a) {
    var t = ManagementFactory.getThreadMXBean();
    byte[] in = new byte[16384];
    Random r = new Random(1);
    // stress-like: 10-byte keys, 34-byte random values, small framing
    for (int i = 0; i < in.length; i++) in[i] = (byte) (i % 220 < 190 ? r.nextInt(256) : 'C');
    var fast = net.jpountz.lz4.LZ4Factory.fastestJavaInstance().fastCompressor();
    byte[] out = new byte[fast.maxCompressedLength(in.length)];
    for (int round = 0; round < 6; round++) {
      long c0 = t.getCurrentThreadCpuTime(); int n1 = 0;
      for (int i = 0; i < 5000; i++) n1 = fast.compress(in, 0, in.length, out, 0);
      long c1 = t.getCurrentThreadCpuTime(); int n2 = 0;
      for (int i = 0; i < 5000; i++) n2 = io.cassette.storage.io.Lz4BlockEncoder.encode(in, 0, in.length, out, 0);
      long c2 = t.getCurrentThreadCpuTime();
      System.out.printf("lz4-java %.1f us/chunk (%d B)  ours %.1f us/chunk (%d B)%n", (c1-c0)/5000/1e3, n1, (c2-c1)/5000/1e3, n2);
    }
  }
}
