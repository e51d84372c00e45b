package io.cassette.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class-data-sharing archive that makes a node start faster: the ~3,500 classes a node
 * loads, parsed, verified and laid out once, then mapped by every later start instead of
 * being read from the jars again (about half the CPU of a start on one core,
 * bench/results/2026-12-02-jvmfoot.md).
 *
 * <p>bin/cassette decides: when it finds no archive for this Java and these jars, and the JVM
 * starts with {@code -XX:+RecordDynamicDumpInfo} (it checks), it passes {@link #PROPERTY}
 * with the path to make. The node makes it when it stops, after a start that reached ready
 * (so the classes that serve the first queries are in it), with the JDK's
 * {@code VM.cds dynamic_dump}: in this process, under a second, on top of the JDK's own
 * archive. (A static dump would need no start flag, but it runs a second JVM at shutdown: 2.8 s
 * of CPU and 200 MB of RSS here, too much beside a board's node.) The archive is written to
 * a temporary name and renamed: a start never sees half an archive (a truncated one crashes
 * the JVM as it maps it). Any failure only costs the speed-up; it is logged, not raised.
 * Archives of other keys (another Java, other jars) in the same directory are removed.
 */
final class ClassArchive {
  /**
   * System property naming the archive to make ({@code <dir>/cassette-<key>.jsa}; made as
   * {@link #sized}).
   */
  static final String PROPERTY = "cassette.class_archive";

  private static final Logger log = LoggerFactory.getLogger(ClassArchive.class);

  private ClassArchive() {}

  /** The archive bin/cassette asked for, or null. */
  static Path requested() {
    String path = System.getProperty(PROPERTY);
    return path == null || path.isEmpty() ? null : Path.of(path);
  }

  /** Makes the requested archive, if one was asked for; never throws. */
  static void makeIfRequested() {
    Path archive = requested();
    if (archive != null) {
      make(archive);
    }
  }

  static void make(Path archive) {
    Path tmp = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    long startNanos = System.nanoTime();
    java.io.PrintStream out = System.out;
    try {
      // The JDK prints "Dynamic dump to file ..." on System.out: not a line for the console.
      System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
      Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmCds",
          new Object[] {new String[] {"dynamic_dump", tmp.toString()}}, new String[] {String[].class.getName()});
      if (!Files.isRegularFile(tmp) || Files.size(tmp) == 0) {
        log.info("No class-data archive made ({}): starts stay as they are", String.valueOf(answer).trim());
        return;
      }
      // On the card before its name: after a power cut there is the whole archive or none.
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.READ)) {
        ch.force(true);
      }
      Path made = sized(archive, Files.size(tmp));
      Files.move(tmp, made, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      log.info("Class-data archive {} made in {} ms: the next starts map it instead of loading classes",
          made, (System.nanoTime() - startNanos) / 1_000_000);
      removeOthers(made);
    } catch (Exception | LinkageError e) {
      log.info("No class-data archive made: {}", e.toString());
    } finally {
      System.setOut(out);
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        // a leftover temporary file is removed by the next archive made here
      }
    }
  }

  /**
   * {@code cassette-<key>.jsa} becomes {@code cassette-<key>-<bytes>.jsa}: bin/cassette uses
   * an archive only if it has that many bytes, because the JVM maps a short one and dies of
   * SIGBUS before it can check anything (-XX:+VerifySharedSpaces included).
   */
  static Path sized(Path archive, long bytes) {
    String name = archive.getFileName().toString();
    String stem = name.endsWith(".jsa") ? name.substring(0, name.length() - ".jsa".length()) : name;
    return archive.resolveSibling(stem + "-" + bytes + ".jsa");
  }

  /**
   * Removes archives of other keys and the temporary files of processes that are gone, so
   * upgrades do not pile up archives. A temporary file is named
   * {@code cassette-<key>.jsa.<pid>.tmp}, followed by the JDK's own {@code .temp} while it
   * dumps.
   */
  private static void removeOthers(Path archive) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(archive.getParent(), "cassette-*.jsa*")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        int at = name.indexOf(".jsa.");
        if (f.getFileName().equals(archive.getFileName())) {
          continue;
        }
        if (at >= 0) {
          String rest = name.substring(at + ".jsa.".length());
          long pid = parseLong(rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
          if (pid > 0 && ProcessHandle.of(pid).isPresent()) {
            continue; // another node making its archive now
          }
        }
        Files.deleteIfExists(f);
      }
    } catch (IOException | RuntimeException e) {
      log.debug("Old class-data archives not removed: {}", e.toString());
    }
  }

  private static long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
