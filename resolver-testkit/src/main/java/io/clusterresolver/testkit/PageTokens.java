package io.clusterresolver.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The page tokens of the simulated listings: an opaque, URL-safe {@code tag:page:offset}. The tag names the simulation
 * that wrote it, so a token of another one is refused as the real API refuses a token it did not write; each cloud
 * words that refusal itself.
 */
final class PageTokens {
  private PageTokens() {}

  static String encode(String tag, int page, int offset) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString((tag + ":" + page + ":" + offset).getBytes(StandardCharsets.UTF_8));
  }

  /** {page, offset}, or {@code null} when {@code token} is not one this tag wrote. */
  static int[] decode(String tag, String token) {
    try {
      String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split(":");
      if (parts.length == 3 && parts[0].equals(tag)) {
        return new int[] {Integer.parseInt(parts[1]), Integer.parseInt(parts[2])};
      }
    } catch (IllegalArgumentException e) {
      // not Base64, or not numbers: not a token of ours
    }
    return null;
  }
}
