package io.cassette.tls.certs;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The few ASN.1 DER encodings an X.509 certificate needs (ITU-T X.690): tag, definite length,
 * content. Every method returns the whole encoded element.
 */
final class Der {
  static final int BOOLEAN = 0x01;
  static final int INTEGER = 0x02;
  static final int BIT_STRING = 0x03;
  static final int OCTET_STRING = 0x04;
  static final int NULL = 0x05;
  static final int OID = 0x06;
  static final int UTC_TIME = 0x17;
  static final int GENERALIZED_TIME = 0x18;
  static final int SEQUENCE = 0x30;

  private Der() {}

  static byte[] element(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  static byte[] sequence(byte[]... items) {
    return element(SEQUENCE, concat(items));
  }

  /** A context-specific constructed tag ([n] EXPLICIT). */
  static byte[] explicit(int n, byte[] inner) {
    return element(0xA0 | n, inner);
  }

  static byte[] integer(BigInteger v) {
    return element(INTEGER, v.toByteArray());
  }

  static byte[] bool(boolean v) {
    return element(BOOLEAN, new byte[] {(byte) (v ? 0xFF : 0)});
  }

  static byte[] octets(byte[] v) {
    return element(OCTET_STRING, v);
  }

  /** A BIT STRING of whole bytes (signatures, keys). */
  static byte[] bits(byte[] v) {
    byte[] c = new byte[v.length + 1];
    System.arraycopy(v, 0, c, 1, v.length);
    return element(BIT_STRING, c);
  }

  /** A one-byte named-bit BIT STRING (keyUsage): trailing zero bits are not encoded, as DER wants. */
  static byte[] namedBits(int firstByte) {
    int unused = Integer.numberOfTrailingZeros(firstByte);
    return element(BIT_STRING, new byte[] {(byte) unused, (byte) firstByte});
  }

  static byte[] nullValue() {
    return new byte[] {NULL, 0};
  }

  static byte[] oid(String dotted) {
    String[] parts = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Integer.parseInt(parts[0]) * 40 + Integer.parseInt(parts[1]));
    for (int i = 2; i < parts.length; i++) {
      long v = Long.parseLong(parts[i]);
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 6) / 7);
      for (int g = groups - 1; g >= 0; g--) {
        int b = (int) ((v >>> (7 * g)) & 0x7F);
        out.write(g == 0 ? b : b | 0x80);
      }
    }
    return element(OID, out.toByteArray());
  }

  /** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
  static byte[] time(ZonedDateTime t) {
    ZonedDateTime utc = t.withZoneSameInstant(ZoneOffset.UTC);
    if (utc.getYear() < 2050) {
      return element(UTC_TIME, utc.format(DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'"))
          .getBytes(StandardCharsets.US_ASCII));
    }
    return element(GENERALIZED_TIME, utc.format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'"))
        .getBytes(StandardCharsets.US_ASCII));
  }

  static byte[] concat(byte[]... items) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] i : items) {
      out.writeBytes(i);
    }
    return out.toByteArray();
  }
}
