package io.cassette.tools.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal pipelining RESP2 client for the import and export tools: commands are buffered by
 * {@link #send} and go out on {@link #flush}; {@link #read} takes the replies in order. Works
 * against Cassette and Redis alike. Not thread-safe.
 */
final class RespClient implements AutoCloseable {
  /** An error reply, kept as a value so a pipeline can go on past it. */
  record Error(String message) {}

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RespClient(String host, int port, int timeoutMs) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress(host, port), timeoutMs);
    socket.setSoTimeout(timeoutMs);
    socket.setTcpNoDelay(true);
    in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
  }

  /** AUTH when a password is given; throws with the server's message when refused. */
  void auth(String user, String password) throws IOException {
    if (password == null) {
      return;
    }
    Object r = user == null ? call("AUTH", password) : call("AUTH", user, password);
    if (r instanceof Error e) {
      throw new IOException("AUTH refused: " + e.message());
    }
  }

  Object call(Object... args) throws IOException {
    send(args);
    flush();
    return read();
  }

  /** Buffers one command; each argument a byte[] or anything whose toString is the argument. */
  void send(Object... args) throws IOException {
    out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (Object a : args) {
      byte[] b = a instanceof byte[] bytes ? bytes : a.toString().getBytes(StandardCharsets.UTF_8);
      out.write(("$" + b.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(b);
      out.write('\r');
      out.write('\n');
    }
  }

  void flush() throws IOException {
    out.flush();
  }

  /** One reply: String (status), Error, Long, byte[] (bulk; null for nil), List (array; null for nil). */
  Object read() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("the server closed the connection");
    }
    String line = line();
    switch (type) {
      case '+':
        return line;
      case '-':
        return new Error(line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        byte[] b = in.readNBytes(n);
        if (b.length != n || in.read() != '\r' || in.read() != '\n') {
          throw new EOFException("truncated bulk reply");
        }
        return b;
      }
      case '*': {
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          items.add(read());
        }
        return items;
      }
      default:
        throw new IOException("unexpected reply type '" + (char) type + "'");
    }
  }

  private String line() throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) != '\r') {
      if (c < 0) {
        throw new EOFException("the server closed the connection");
      }
      sb.append((char) c);
    }
    in.read(); // '\n'
    return sb.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
