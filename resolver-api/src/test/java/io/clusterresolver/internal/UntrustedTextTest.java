package io.clusterresolver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UntrustedTextTest {

  @Test
  void controlAndFormatCharactersBecomeJavaEscapes() {
    // A forged log line, an ANSI "clear screen", a right-to-left override (U+202E), a line separator, a C1 CSI.
    assertThat(UntrustedText.escape("denied\r\nINFO ok \u001b[2J \u202Etxt \u2028 \u009b \u007f"))
        .isEqualTo("denied\\u000d\\u000aINFO ok \\u001b[2J \\u202etxt \\u2028 \\u009b \\u007f");
    assertThat(UntrustedText.escape("wörker-日本 tab-free")).isEqualTo("wörker-日本 tab-free");
    assertThat(UntrustedText.escape("a\u0000b", 1)).isEqualTo("a…");
    assertThat(UntrustedText.escape("😀x", 1)).isEqualTo("😀…");
    assertThat(UntrustedText.escape(null)).isNull();
  }

  @Test
  void theUserInfoOfAUrlIsHidden() {
    assertThat(UntrustedText.withoutUserInfo("Connect to https://admin:S3CR3T@10.0.0.1:443/api failed"))
        .isEqualTo("Connect to https://***@10.0.0.1:443/api failed");
    assertThat(UntrustedText.withoutUserInfo("'http://token@h' and ftp://h/x@y"))
        .isEqualTo("'http://***@h' and ftp://h/x@y");
    assertThat(UntrustedText.withoutUserInfo("mail me@example.com")).isEqualTo("mail me@example.com");
  }
}
