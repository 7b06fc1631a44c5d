package io.clusterresolver.slurm;

/** Slurm's natural order of host-name prefixes ({@code rack2} before {@code rack10}). */
final class NaturalOrder {
  private NaturalOrder() {}

  static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (true) {
      while (i < a.length() && Character.isWhitespace(a.charAt(i))) {
        i++;
      }
      while (j < b.length() && Character.isWhitespace(b.charAt(j))) {
        j++;
      }
      char ca = i < a.length() ? a.charAt(i) : 0;
      char cb = j < b.length() ? b.charAt(j) : 0;
      if (isDigit(ca) && isDigit(cb)) {
        boolean fractional = ca == '0' || cb == '0';
        int[] ends = new int[2];
        int result = compareDigits(a, i, b, j, ends, fractional);
        if (result != 0) {
          return result;
        }
        i = ends[0];
        j = ends[1];
        continue;
      }
      if (ca == 0 && cb == 0) {
        return 0;
      }
      if (ca != cb) {
        return ca < cb ? -1 : 1;
      }
      i++;
      j++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * One digit run of each. Right-aligned (no leading zero): the longer run is larger, else the first difference
   * decides. Left-aligned (a leading zero, read as a fraction): the first difference decides at once.
   */
  private static int compareDigits(String a, int i, String b, int j, int[] ends, boolean leftAligned) {
    int bias = 0;
    while (true) {
      boolean da = i < a.length() && isDigit(a.charAt(i));
      boolean db = j < b.length() && isDigit(b.charAt(j));
      if (!da && !db) {
        ends[0] = i;
        ends[1] = j;
        return bias;
      }
      if (!da) {
        return -1;
      }
      if (!db) {
        return 1;
      }
      if (bias == 0) {
        bias = Integer.signum(Character.compare(a.charAt(i), b.charAt(j)));
        if (leftAligned && bias != 0) {
          return bias;
        }
      }
      i++;
      j++;
    }
  }
}
