package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.rdb.DumpPayload;
import io.cassette.resp.rdb.RdbFormatException;
import io.cassette.resp.rdb.RedisValue;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * DUMP, RESTORE and MIGRATE with Redis 7.0's payloads ({@link DumpPayload}) and error texts:
 * a key DUMPed by Redis RESTOREs here and back. RESTORE accepts REPLACE, ABSTTL, IDLETIME and
 * FREQ (the last two are checked and ignored: Cassette keeps no LRU/LFU data). MIGRATE talks
 * RESP to the target over a blocking socket with the given timeout, on the command thread, as
 * Redis does (other clients wait meanwhile; keep the timeout short); it keeps no cached
 * connection.
 */
final class DumpCommands {
  private DumpCommands() {}

  static void register(CommandTable t) {
    t.add("dump", 2, READONLY, 1, 1, 1, DumpCommands::dump);
    t.add("restore", -4, WRITE | DENY_OOM, 1, 1, 1, DumpCommands::restore);
    t.add("migrate", -6, WRITE, 3, 3, 1, DumpCommands::migrate);
  }

  private static void dump(CommandContext c) {
    KeyMeta m = c.db().meta(c.arg(1));
    if (m == null) {
      c.reply().nullBulk();
      return;
    }
    c.reply().bulk(DumpPayload.encode(StoredValues.read(c.db(), m)));
  }

  private static void restore(CommandContext c) {
    boolean replace = false;
    boolean absTtl = false;
    long idle = -1;
    long freq = -1;
    for (int j = 4; j < c.argc(); j++) {
      boolean more = j + 1 < c.argc();
      if (Args.is(c.arg(j), "replace")) {
        replace = true;
      } else if (Args.is(c.arg(j), "absttl")) {
        absTtl = true;
      } else if (Args.is(c.arg(j), "idletime") && more && freq == -1) {
        idle = parse(c.arg(++j));
        if (idle < 0) {
          throw new RedisException("ERR Invalid IDLETIME value, must be >= 0");
        }
      } else if (Args.is(c.arg(j), "freq") && more && idle == -1) {
        freq = parse(c.arg(++j));
        if (freq < 0 || freq > 255) {
          throw new RedisException("ERR Invalid FREQ value, must be >= 0 and <= 255");
        }
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    byte[] key = c.arg(1);
    Database db = c.db();
    KeyMeta existing = db.meta(key);
    if (!replace && existing != null) {
      throw new RedisException("BUSYKEY Target key name already exists.");
    }
    long ttl = parse(c.arg(2));
    if (ttl < 0) {
      throw new RedisException("ERR Invalid TTL value, must be >= 0");
    }
    byte[] payload = c.arg(3);
    if (!DumpPayload.verify(payload)) {
      throw new RedisException("ERR DUMP payload version or checksum are wrong");
    }
    RedisValue value;
    try {
      value = DumpPayload.decode(payload);
    } catch (RdbFormatException e) {
      throw new RedisException("ERR Bad data format");
    }
    if (value.size() == 0) {
      throw new RedisException("ERR Bad data format");
    }
    long expireAt = ttl == 0 ? 0 : absTtl ? ttl : System.currentTimeMillis() + ttl;
    if (expireAt != 0 && expireAt <= System.currentTimeMillis()) {
      if (existing != null) { // REPLACE of an already expired value: the old key goes
        Batch b = db.batch();
        db.remove(b, key, existing);
        b.commit();
        c.touched(key);
      }
      c.reply().ok();
      return;
    }
    if (!StoredValues.write(db, key, existing, value, expireAt)) {
      throw new RedisException("ERR Bad data format");
    }
    c.touched(key);
    if (value instanceof RedisValue.ListValue) {
      c.signalReady(key);
    }
    c.reply().ok();
  }

  private static long parse(byte[] arg) {
    Long v = Args.parseLongOrNull(arg);
    if (v == null) {
      throw new RedisException(Errors.NOT_INTEGER);
    }
    return v;
  }

  /** MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH pw | AUTH2 user pw] [KEYS key...]. */
  private static void migrate(CommandContext c) {
    boolean copy = false;
    boolean replace = false;
    byte[] user = null;
    byte[] password = null;
    List<byte[]> keys = new ArrayList<>();
    int j;
    boolean keysOption = false;
    for (j = 6; j < c.argc(); j++) {
      int more = c.argc() - 1 - j;
      if (Args.is(c.arg(j), "copy")) {
        copy = true;
      } else if (Args.is(c.arg(j), "replace")) {
        replace = true;
      } else if (Args.is(c.arg(j), "auth")) {
        if (more < 1) {
          throw new RedisException(Errors.SYNTAX);
        }
        password = c.arg(++j);
      } else if (Args.is(c.arg(j), "auth2")) {
        if (more < 2) {
          throw new RedisException(Errors.SYNTAX);
        }
        user = c.arg(++j);
        password = c.arg(++j);
      } else if (Args.is(c.arg(j), "keys")) {
        if (c.arg(3).length != 0) {
          throw new RedisException(
              "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string");
        }
        for (int k = j + 1; k < c.argc(); k++) {
          keys.add(c.arg(k));
        }
        keysOption = true;
        break;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (!keysOption) {
      keys.add(c.arg(3));
    }
    long timeout = parse(c.arg(5));
    long dbid = parse(c.arg(4));
    if (timeout <= 0) {
      timeout = 1000;
    }
    Database db = c.db();
    List<byte[]> found = new ArrayList<>();
    List<KeyMeta> metas = new ArrayList<>();
    for (byte[] k : keys) {
      KeyMeta m = db.meta(k);
      if (m != null) {
        found.add(k);
        metas.add(m);
      }
    }
    if (found.isEmpty()) {
      c.reply().status("NOKEY");
      return;
    }
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    int replies = 0;
    if (password != null) {
      command(request, user == null ? List.of(b("AUTH"), password) : List.of(b("AUTH"), user, password));
      replies++;
    }
    command(request, List.of(b("SELECT"), b(Long.toString(dbid))));
    replies++;
    long now = System.currentTimeMillis();
    List<byte[]> sent = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      KeyMeta m = metas.get(i);
      long ttl = 0;
      if (m.expireAtMs != 0) {
        ttl = m.expireAtMs - now;
        if (ttl < 1) {
          continue; // expired meanwhile: Redis skips it too
        }
      }
      List<byte[]> args = new ArrayList<>(List.of(b("RESTORE"), found.get(i), b(Long.toString(ttl)),
          DumpPayload.encode(StoredValues.read(db, m))));
      if (replace) {
        args.add(b("REPLACE"));
      }
      command(request, args);
      sent.add(found.get(i));
    }
    String host = c.argString(1);
    int port = (int) parse(c.arg(2));
    List<String> answers = new ArrayList<>();
    try (Socket s = new Socket()) {
      try {
        s.connect(new InetSocketAddress(host, port), (int) Math.min(timeout, Integer.MAX_VALUE));
        s.setSoTimeout((int) Math.min(timeout, Integer.MAX_VALUE));
      } catch (IOException e) {
        throw new RedisException("IOERR error or timeout connecting to the client");
      }
      try {
        OutputStream out = s.getOutputStream();
        out.write(request.toByteArray());
        out.flush();
      } catch (IOException e) {
        throw new RedisException("IOERR error or timeout writing to target instance");
      }
      try {
        InputStream in = new BufferedInputStream(s.getInputStream());
        for (int i = 0; i < replies + sent.size(); i++) {
          answers.add(readLine(in));
        }
      } catch (IOException e) {
        throw new RedisException("IOERR error or timeout reading to target node");
      }
    } catch (IOException e) {
      throw new RedisException("IOERR error or timeout connecting to the client");
    }
    for (int i = 0; i < replies; i++) {
      if (answers.get(i).startsWith("-")) {
        throw new RedisException("ERR Target instance replied with error: " + answers.get(i).substring(1));
      }
    }
    String error = null;
    Batch b = db.batch();
    for (int i = 0; i < sent.size(); i++) {
      String a = answers.get(replies + i);
      if (a.startsWith("-")) {
        error = a.substring(1);
      } else if (!copy) {
        byte[] k = sent.get(i);
        KeyMeta m = db.meta(k);
        if (m != null) {
          db.remove(b, k, m);
          c.touched(k);
        }
      }
    }
    b.commit();
    if (error != null) {
      throw new RedisException("ERR Target instance replied with error: " + error);
    }
    c.reply().ok();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void command(ByteArrayOutputStream out, List<byte[]> args) {
    out.writeBytes(b("*" + args.size() + "\r\n"));
    for (byte[] a : args) {
      out.writeBytes(b("$" + a.length + "\r\n"));
      out.writeBytes(a);
      out.writeBytes(b("\r\n"));
    }
  }

  /** One simple reply line (+OK / -ERR ...); other reply kinds are read as their first line. */
  private static String readLine(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    int ch;
    while ((ch = in.read()) != '\n') {
      if (ch < 0) {
        throw new java.io.EOFException();
      }
      if (ch != '\r') {
        sb.append((char) ch);
      }
    }
    return sb.toString();
  }
}
