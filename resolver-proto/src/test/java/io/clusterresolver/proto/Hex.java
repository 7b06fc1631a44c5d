package io.clusterresolver.proto;

import java.util.HexFormat;

final class Hex {
  private Hex() {}

  static String of(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  static byte[] parse(String hex) {
    return HexFormat.of().parseHex(hex);
  }
}
