package io.cassette.resp.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A plain socket for sending exact bytes and reading exact replies (protocol tests). */
public final class RawClient implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public RawClient(InetSocketAddress address) throws IOException {
    socket = new Socket();
    socket.connect(address, 2000);
    socket.setSoTimeout(3000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** Replaces the read timeout (3 s by default): for replies to huge commands on a loaded machine. */
  public RawClient readTimeout(int millis) throws IOException {
    socket.setSoTimeout(millis);
    return this;
  }

  public void send(String text) throws IOException {
    send(text.getBytes(StandardCharsets.UTF_8));
  }

  public void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Sends a command as a RESP multibulk. */
  public void command(String... args) throws IOException {
    StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
    for (String a : args) {
      sb.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a)
          .append("\r\n");
    }
    send(sb.toString());
  }

  /** Reads exactly {@code n} bytes (or fewer if the server closes). */
  public String read(int n) throws IOException {
    byte[] b = in.readNBytes(n);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Reads one line including CRLF. */
  public String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      b.write(c);
      if (c == '\n') {
        break;
      }
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  /** Reads one complete RESP reply, returned verbatim. */
  public String reply() throws IOException {
    StringBuilder sb = new StringBuilder();
    readReply(sb);
    return sb.toString();
  }

  private void readReply(StringBuilder sb) throws IOException {
    String l = line();
    sb.append(l);
    if (l.isEmpty()) {
      return;
    }
    char t = l.charAt(0);
    String num = l.substring(1).trim();
    switch (t) {
      case '$', '=', '!' -> {
        int n = Integer.parseInt(num);
        if (n >= 0) {
          sb.append(read(n + 2));
        }
      }
      case '*', '~', '>' -> {
        int n = Integer.parseInt(num);
        for (int i = 0; i < n; i++) {
          readReply(sb);
        }
      }
      case '%', '|' -> {
        int n = Integer.parseInt(num);
        for (int i = 0; i < 2 * n; i++) {
          readReply(sb);
        }
      }
      default -> { }
    }
  }

  /** True when the server closed the connection (EOF within the read timeout). */
  public boolean closedByServer() throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
