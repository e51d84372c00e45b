package io.cassette.cql.language.system;

import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.statements.TableReader;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * {@code system_traces.sessions} and {@code .events} read from the {@link TraceStore}: a read
 * of one session (what drivers do: {@code WHERE session_id = ?}) builds the rows of that
 * session only; a scan builds them all.
 */
public final class TraceTables implements TableReader {
  private final TableMetadata table;
  private final TraceStore store;

  public TraceTables(TableMetadata table, TraceStore store) {
    this.table = table;
    this.store = store;
  }

  @Override
  public PartitionView read(byte[] partitionKey, ReadQuery query) {
    UUID id = null;
    if (partitionKey.length == 16) {
      ByteBuffer b = ByteBuffer.wrap(partitionKey);
      id = new UUID(b.getLong(), b.getLong());
    }
    List<java.util.Map<String, byte[]>> rows = id == null ? List.of() : store.rows(table, id);
    return new VirtualTable(table, rows).read(partitionKey, query);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    return new VirtualTable(table, store.rows(table, null)).scan(range, query);
  }
}
