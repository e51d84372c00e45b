package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interrupted request threads must not break reads or writes for everyone else (NIO closes channels on interrupt). */
class InterruptTest {
  @TempDir
  Path dir;

  static PartitionUpdate put(String k) {
    return PartitionUpdate.builder("ks", "t", k.getBytes()).row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", k.getBytes(), 1)))).build();
  }

  @Test
  void interruptsOfReadersAndWritersLeaveTheEngineWorking() throws Exception {
    TableSpec spec = TableSpec.withDefaults("ks", "t", UUID.randomUUID());
    Set<String> acked = ConcurrentHashMap.newKeySet();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec);
      for (int i = 0; i < 3000; i++) {
        t.apply(put("base" + i));
        acked.add("base" + i);
      }
      t.flush();
      AtomicBoolean stop = new AtomicBoolean();
      Thread reader = new Thread(() -> {
        int i = 0;
        while (!stop.get()) {
          try {
            t.read(("base" + (i++ % 3000)).getBytes(), ReadQuery.all(0));
          } catch (StorageException ex) {
            // its own read may fail; nobody else's may
          }
          Thread.interrupted();
        }
      });
      Thread writer = new Thread(() -> {
        int i = 0;
        while (!stop.get()) {
          String k = "w" + i++;
          try {
            t.apply(put(k));
            acked.add(k);
          } catch (StorageException ex) {
            // its own write may fail, having applied nothing
          }
          Thread.interrupted();
        }
      });
      reader.start();
      writer.start();
      for (int n = 0; n < 300; n++) {
        reader.interrupt();
        writer.interrupt();
        Thread.sleep(1);
      }
      stop.set(true);
      reader.join();
      writer.join();
      for (int i = 0; i < 3000; i++) {
        assertThat(t.read(("base" + i).getBytes(), ReadQuery.all(0)).staticRow()).as("base%d", i).isNotNull();
      }
      t.apply(put("after"));
      acked.add("after");
      t.flush();
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      for (String k : acked) {
        assertThat(t.read(k.getBytes(), ReadQuery.all(0)).staticRow()).as(k).isNotNull();
      }
    }
  }
}
