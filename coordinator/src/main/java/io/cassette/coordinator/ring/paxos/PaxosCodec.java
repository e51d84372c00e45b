package io.cassette.coordinator.ring.paxos;

import io.cassette.coordinator.ring.VersionedPayload;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.StorageException;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.DataWriter;
import io.cassette.storage.partition.PartitionSerializer;
import java.util.ArrayList;
import java.util.List;

/**
 * The Paxos verbs' payloads and the durable state records, each starting with a version byte.
 *
 * <pre>
 * ballot   := micros:i64 node:i64
 * proposal := ballot count:varint (ks:str table:str update-body)*
 * opt-proposal := present:u8 [proposal]
 * prepare  := v ks:str table:str key:bytes ballot now:i64 read:u8     (PAXOS2_PREPARE_REQ)
 * promise  := v promised:u8 ballot(latest) [opt-proposal accepted opt-proposal committed
 *             read:u8 [update-body]]                                 (PAXOS2_PREPARE_RSP)
 * propose  := v ks:str table:str key:bytes proposal                 (PAXOS2_PROPOSE_REQ)
 * accepted := v accepted:u8 ballot(latest)                          (PAXOS2_PROPOSE_RSP)
 * commit   := v ks:str table:str key:bytes proposal                 (PAXOS_COMMIT_REQ; answer: v)
 * state    := v ks:str table:str key:bytes ballot(promised) opt-proposal opt-proposal  (the paxos log)
 * </pre>
 */
final class PaxosCodec {
  static final int VERSION = 1;
  private static final VersionedPayload FORMAT = new VersionedPayload(VERSION, "paxos payload");

  private PaxosCodec() {}

  record Prepare(String keyspace, String table, byte[] key, Ballot ballot, long nowInSeconds, boolean read) {}

  /** {@code latest}: on a refusal the newest ballot the replica knows; on a promise its promise before this one. */
  record Promise(boolean promised, Ballot latest, Proposal accepted, Proposal committed, PartitionUpdate read) {}

  record Propose(String keyspace, String table, byte[] key, Proposal proposal) {}

  record Accepted(boolean accepted, Ballot latest) {}

  record StateRecord(String keyspace, String table, byte[] key, PaxosState state) {}

  static byte[] prepare(Prepare p) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeString(p.keyspace());
    out.writeString(p.table());
    out.writeLengthPrefixed(p.key());
    writeBallot(out, p.ballot());
    out.writeLong(p.nowInSeconds());
    out.writeByte(p.read() ? 1 : 0);
    return out.toByteArray();
  }

  static Prepare prepare(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    return new Prepare(in.readString(), in.readString(), VersionedPayload.bytes(in), readBallot(in), in.readLong(), in.readByte() != 0);
  }

  static byte[] promise(Promise p) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeByte(p.promised() ? 1 : 0);
    writeBallot(out, p.latest());
    if (p.promised()) {
      writeOptional(out, p.accepted());
      writeOptional(out, p.committed());
      out.writeByte(p.read() != null ? 1 : 0);
      if (p.read() != null) {
        PartitionSerializer.writeUpdateBody(out, p.read());
      }
    }
    return out.toByteArray();
  }

  static Promise promise(byte[] payload, String keyspace, String table) {
    DataReader in = FORMAT.reader(payload);
    boolean promised = in.readByte() != 0;
    Ballot latest = readBallot(in);
    if (!promised) {
      return new Promise(false, latest, null, null, null);
    }
    Proposal accepted = readOptional(in);
    Proposal committed = readOptional(in);
    PartitionUpdate read = in.readByte() != 0 ? PartitionSerializer.readUpdateBody(in, keyspace, table) : null;
    return new Promise(true, latest, accepted, committed, read);
  }

  static byte[] propose(Propose p) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeString(p.keyspace());
    out.writeString(p.table());
    out.writeLengthPrefixed(p.key());
    writeProposal(out, p.proposal());
    return out.toByteArray();
  }

  static Propose propose(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    return new Propose(in.readString(), in.readString(), VersionedPayload.bytes(in), readProposal(in));
  }

  static byte[] accepted(Accepted a) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeByte(a.accepted() ? 1 : 0);
    writeBallot(out, a.latest());
    return out.toByteArray();
  }

  static Accepted accepted(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    return new Accepted(in.readByte() != 0, readBallot(in));
  }

  static byte[] ack() {
    return new byte[] {(byte) VERSION};
  }

  static byte[] state(StateRecord r) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeString(r.keyspace());
    out.writeString(r.table());
    out.writeLengthPrefixed(r.key());
    writeBallot(out, r.state().promised());
    writeOptional(out, r.state().accepted());
    writeOptional(out, r.state().committed());
    return out.toByteArray();
  }

  static StateRecord state(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    String ks = in.readString();
    String table = in.readString();
    byte[] key = VersionedPayload.bytes(in);
    Ballot promised = readBallot(in);
    return new StateRecord(ks, table, key, new PaxosState(promised, readOptional(in), readOptional(in)));
  }

  // ------------------------------------------------------------------ parts

  private static void writeBallot(DataWriter out, Ballot b) {
    out.writeLong(b.micros());
    out.writeLong(b.node());
  }

  private static Ballot readBallot(DataReader in) {
    long micros = in.readLong();
    long node = in.readLong();
    return micros == Long.MIN_VALUE && node == Long.MIN_VALUE ? Ballot.NONE : new Ballot(micros, node);
  }

  private static void writeOptional(DataWriter out, Proposal p) {
    out.writeByte(p != null ? 1 : 0);
    if (p != null) {
      writeProposal(out, p);
    }
  }

  private static Proposal readOptional(DataReader in) {
    return in.readByte() != 0 ? readProposal(in) : null;
  }

  private static void writeProposal(DataWriter out, Proposal p) {
    writeBallot(out, p.ballot());
    out.writeVarInt(p.updates().size());
    for (PartitionUpdate u : p.updates()) {
      out.writeString(u.keyspace());
      out.writeString(u.table());
      PartitionSerializer.writeUpdateBody(out, u);
    }
  }

  private static Proposal readProposal(DataReader in) {
    Ballot b = readBallot(in);
    int n = in.readVarInt();
    if (n < 0 || n > 4096) {
      throw new StorageException("malformed proposal of " + n + " updates");
    }
    List<PartitionUpdate> updates = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String ks = in.readString();
      String table = in.readString();
      updates.add(PartitionSerializer.readUpdateBody(in, ks, table));
    }
    return new Proposal(b, updates);
  }
}
