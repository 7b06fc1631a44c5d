package io.clusterresolver.cloud.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under the secret a job's processes share ({@code relay-secret}): what proves a
 * relay request, a relay answer and a shared listing file came from a holder of the secret and were
 * not changed. Each use has its own context word and every part is length-prefixed, so a seal made
 * for one use or one split of the parts never verifies another. Without a secret
 * ({@linkplain #unkeyed() unkeyed}) the seal is only a checksum: it catches damage, not forgery.
 */
final class ListingSeal {

  /** Bytes of a seal. */
  static final int LENGTH = 32;

  /** Publicly known: an unkeyed seal proves no secret, only that the bytes were not damaged. */
  private static final byte[] NO_SECRET = "cluster-resolver: no relay secret".getBytes(StandardCharsets.UTF_8);

  private final SecretKeySpec key;
  private final boolean keyed;

  private ListingSeal(byte[] secret, boolean keyed) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
    this.keyed = keyed;
  }

  /** Seals under {@code secret} (not empty). */
  static ListingSeal of(byte[] secret) {
    return new ListingSeal(secret, true);
  }

  /** A checksum only: for a relay that runs without a secret ({@code relay-insecure=true}) or no relay. */
  static ListingSeal unkeyed() {
    return new ListingSeal(NO_SECRET, false);
  }

  /** Whether this seal proves a secret. */
  boolean keyed() {
    return keyed;
  }

  /** The seal of {@code parts} for the use named {@code context}. */
  byte[] seal(String context, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      update(mac, context.getBytes(StandardCharsets.UTF_8));
      for (byte[] part : parts) {
        update(mac, part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Whether {@code seal} is the seal of {@code parts} for {@code context}, compared in constant time. */
  boolean verifies(byte[] seal, String context, byte[]... parts) {
    return seal != null && MessageDigest.isEqual(seal, seal(context, parts));
  }

  private static void update(Mac mac, byte[] part) {
    mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
    mac.update(part);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return keyed ? "ListingSeal{keyed}" : "ListingSeal{checksum only}"; // never the secret
  }
}
