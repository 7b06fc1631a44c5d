package io.clusterresolver.cloud.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret a job's processes share ({@code relay-secret}), as two keys derived from it with
 * HKDF-SHA256 (RFC 5869) under distinct labels: an HMAC-SHA256 key, whose seals prove that a relay
 * request and a shared listing file came from a holder of the secret and were not changed, and an
 * AES-256-GCM key, which encrypts and authenticates the relay's answers. Each use has its own
 * context word and every part is length-prefixed, so a seal (or an answer's additional data) made
 * for one use or one split of the parts never verifies another. Without a secret
 * ({@linkplain #unkeyed() unkeyed}) the seal is only a checksum: it catches damage, not forgery, and
 * nothing is encrypted (a shared listing file without a secret carries a CRC32C instead, cheaper
 * for the same purpose: {@link ListingFile}).
 */
final class ListingSeal {

  /** Bytes of a seal. */
  static final int LENGTH = 32;
  /** Bytes of an AES-GCM nonce: fresh for every encryption (96 bits, as GCM is specified for). */
  static final int NONCE_LENGTH = 12;
  private static final int TAG_BITS = 128;

  /** Publicly known: an unkeyed seal proves no secret, only that the bytes were not damaged. */
  private static final byte[] NO_SECRET = "cluster-resolver: no relay secret".getBytes(StandardCharsets.UTF_8);
  /** HKDF's salt: fixed and public (the secret is the input key material), naming the protocol version. */
  private static final byte[] SALT = utf8("cluster-resolver relay v2");
  /** SHA-256's block: the length HMAC pads its key to (RFC 2104). */
  private static final int BLOCK = 64;

  private final byte[] macKey;
  private final byte[] encryptionKey;
  private final boolean keyed;

  private ListingSeal(byte[] secret, boolean keyed) {
    byte[] prk = hkdfExtract(SALT, secret);
    this.macKey = hkdfExpand(prk, utf8("hmac-sha256 seal"), 32);
    this.encryptionKey = hkdfExpand(prk, utf8("aes-256-gcm answer"), 32);
    this.keyed = keyed;
  }

  /** The nonces' source, made on the first encryption: only a keyed relay encrypts. */
  private static final class Nonces {
    static final SecureRandom RANDOM = new SecureRandom();
  }

  /** Seals under {@code secret} (not empty). */
  static ListingSeal of(byte[] secret) {
    return new ListingSeal(secret, true);
  }

  /** A checksum only: for a relay that runs without a secret ({@code relay-insecure=true}) or no relay. */
  static ListingSeal unkeyed() {
    return new ListingSeal(NO_SECRET, false);
  }

  /** Whether this seal proves a secret (and so encrypts). */
  boolean keyed() {
    return keyed;
  }

  /** The seal of {@code parts} for the use named {@code context}. */
  byte[] seal(String context, byte[]... parts) {
    return hmac(macKey, framed(context, parts));
  }

  /**
   * {@code plaintext} encrypted with AES-256-GCM under a fresh random nonce, {@code context} and
   * {@code associated} authenticated with it: the nonce, then the ciphertext and its 16-byte tag.
   */
  byte[] encrypt(String context, byte[] plaintext, byte[]... associated) {
    byte[] nonce = new byte[NONCE_LENGTH];
    Nonces.RANDOM.nextBytes(nonce);
    try {
      Cipher aes = gcm(Cipher.ENCRYPT_MODE, nonce, context, associated);
      byte[] sealed = Arrays.copyOf(nonce, NONCE_LENGTH + aes.getOutputSize(plaintext.length));
      aes.doFinal(plaintext, 0, plaintext.length, sealed, NONCE_LENGTH);
      return sealed;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM/NoPadding is part of every Java runtime", e);
    }
  }

  /**
   * The plaintext of {@link #encrypt}'s {@code sealed} for the same {@code context} and
   * {@code associated} data, or {@code null} when it was not made so under this secret or was changed.
   */
  byte[] decrypt(String context, byte[] sealed, byte[]... associated) {
    if (sealed.length < NONCE_LENGTH + TAG_BITS / 8) {
      return null;
    }
    try {
      Cipher aes = gcm(Cipher.DECRYPT_MODE, Arrays.copyOf(sealed, NONCE_LENGTH), context, associated);
      return aes.doFinal(sealed, NONCE_LENGTH, sealed.length - NONCE_LENGTH);
    } catch (AEADBadTagException e) {
      return null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM/NoPadding is part of every Java runtime", e);
    }
  }

  private Cipher gcm(int mode, byte[] nonce, String context, byte[]... associated) throws GeneralSecurityException {
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(mode, new SecretKeySpec(encryptionKey, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
    aes.updateAAD(framed(context, associated));
    return aes;
  }

  /** {@code context} and {@code parts}, each prefixed with its length. */
  private static byte[] framed(String context, byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    frame(out, utf8(context));
    for (byte[] part : parts) {
      frame(out, part);
    }
    return out.toByteArray();
  }

  private static void frame(ByteArrayOutputStream out, byte[] part) {
    out.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
    out.writeBytes(part);
  }

  /** HKDF-Extract (RFC 5869 section 2.2) with HMAC-SHA256. */
  static byte[] hkdfExtract(byte[] salt, byte[] inputKeyMaterial) {
    return hmac(salt, inputKeyMaterial);
  }

  /** HKDF-Expand (RFC 5869 section 2.3) with HMAC-SHA256: {@code length} bytes (at most 255 × 32). */
  static byte[] hkdfExpand(byte[] prk, byte[] info, int length) {
    byte[] okm = new byte[length];
    byte[] block = new byte[0];
    for (int i = 1, done = 0; done < length; i++) {
      byte[] input = Arrays.copyOf(block, block.length + info.length + 1);
      System.arraycopy(info, 0, input, block.length, info.length);
      input[input.length - 1] = (byte) i;
      block = hmac(prk, input);
      int n = Math.min(block.length, length - done);
      System.arraycopy(block, 0, okm, done, n);
      done += n;
    }
    return okm;
  }

  /**
   * HMAC-SHA256 (RFC 2104) on the JDK's SHA-256. Not {@code javax.crypto.Mac}: looking it up loads the JCE,
   * its policy files and provider checks (a cold tpu resolve: 75 classes and 1.6 MiB of its resident set),
   * which every cold resolve that shares a listing paid for a checksum (issue 23). {@code RelayEncryptionTest} checks it against RFC 4231 and
   * against {@code Mac}.
   */
  static byte[] hmac(byte[] key, byte[] data) {
    MessageDigest sha256 = sha256();
    byte[] k = key.length > BLOCK ? sha256.digest(key) : key;
    byte[] inner = new byte[BLOCK];
    byte[] outer = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      byte b = i < k.length ? k[i] : 0; // a short key is padded with zeros, an empty one too
      inner[i] = (byte) (b ^ 0x36);
      outer[i] = (byte) (b ^ 0x5c);
    }
    sha256.update(inner);
    byte[] innerHash = sha256.digest(data);
    sha256.update(outer);
    return sha256.digest(innerHash);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return keyed ? "ListingSeal{keyed}" : "ListingSeal{checksum only}"; // never the secret
  }
}
