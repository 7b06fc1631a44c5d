package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.slurm.Hostlist;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * {@code slurm-hostlist.json}: what Slurm 22.05's {@code scontrol} does with host lists (K7).
 * Every valid expansion must give {@code hostnames} (for a truncated one: count, the first and last
 * five names and the sha256 of the names joined by newlines with a trailing newline), every invalid
 * one an {@link IllegalArgumentException}; compression must give {@code scontrol show hostlist} and
 * {@code hostlistsorted}, and expanding the compressed form must give the round-trip names.
 */
class SlurmHostlistConformanceTest {

  static final String FILE = "slurm-hostlist.json";

  @TestFactory
  Stream<DynamicNode> slurmHostlist() {
    Tally tally = Tally.of(FILE);
    if (ConformanceData.file(FILE).isEmpty()) {
      return Stream.of(DynamicTest.dynamicTest(FILE + " (absent)", () -> {
        throw new AssertionFailedError(FILE + " is not in " + ConformanceData.directory());
      }));
    }
    JsonNode root = ConformanceData.readJson(FILE);
    List<DynamicNode> tests = new ArrayList<>();
    for (JsonNode c : root.path("expand")) {
      tests.add(DynamicTest.dynamicTest("expand " + c.path("id").asText() + " " + c.path("input").asText(),
          () -> judge(tally, c.path("id").asText(), expandProblem(c))));
    }
    for (JsonNode c : root.path("compress")) {
      tests.add(DynamicTest.dynamicTest("compress " + c.path("id").asText() + " " + c.path("input").asText(),
          () -> judge(tally, c.path("id").asText(), compressProblem(c))));
    }
    tests.add(DynamicTest.dynamicTest(FILE + " tally", tally::print));
    return tests.stream();
  }

  private static void judge(Tally tally, String id, String problem) {
    if (problem == null) {
      tally.passed();
      return;
    }
    tally.failed(id, problem);
    throw new AssertionFailedError(id + ": " + problem);
  }

  /**
   * Whether scontrol refused its command line rather than the host list: a list that starts with
   * {@code -} reads as an option ({@code invalid option -- 'n'}, getopt's words, never the host-list
   * parser's). Slurm itself accepts such a list ({@code a,-n[1-2]} is a, -n1, -n2), so the case is no
   * verdict on the list (docs/tf-compatibility.md K7).
   */
  static boolean refusedCommandLine(JsonNode run) {
    String stderr = run.path("stderr").asText();
    return stderr.contains("invalid option") || stderr.contains("unrecognized option");
  }

  /** Why the expansion of one case differs from scontrol's, or {@code null}. */
  static String expandProblem(JsonNode c) throws Exception {
    String input = c.path("input").asText();
    if (refusedCommandLine(c)) {
      // Judged by the oracle's own reader of Slurm's forms, which shares nothing with resolver-slurm.
      List<String> expected;
      try {
        expected = SlurmText.hosts(input);
      } catch (IllegalArgumentException e) {
        return "scontrol refused its command line for '" + input + "' and the oracle cannot read it: " + e.getMessage();
      }
      List<String> hosts = Hostlist.expand(input);
      return hosts.equals(expected) ? null : "expanded to " + abbreviate(hosts) + ", Slurm's list " + abbreviate(expected);
    }
    List<String> hosts;
    try {
      hosts = Hostlist.expand(input);
    } catch (IllegalArgumentException e) {
      return c.path("valid").asBoolean() ? "Slurm accepts '" + input + "' but Java threw " + e.getMessage() : null;
    }
    if (!c.path("valid").asBoolean()) {
      return "Slurm rejects '" + input + "' but Java expanded it to " + abbreviate(hosts);
    }
    if (hosts.size() != c.path("count").asInt()) {
      return "count " + hosts.size() + ", Slurm " + c.path("count").asInt();
    }
    JsonNode truncated = c.path("truncated");
    if (truncated.isObject()) {
      List<String> head = strings(truncated.path("head"));
      List<String> tail = strings(truncated.path("tail"));
      if (!hosts.subList(0, head.size()).equals(head) || !hosts.subList(hosts.size() - tail.size(), hosts.size())
          .equals(tail)) {
        return "head/tail " + abbreviate(hosts) + " differ from Slurm's " + head + " ... " + tail;
      }
      StringBuilder joined = new StringBuilder();
      hosts.forEach(h -> joined.append(h).append('\n'));
      String sha = HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(joined.toString().getBytes(StandardCharsets.UTF_8)));
      return sha.equals(truncated.path("stdout_sha256").asText()) ? null : "sha256 of the names differs";
    }
    List<String> expected = strings(c.path("hostnames"));
    return hosts.equals(expected) ? null : "expanded to " + abbreviate(hosts) + ", Slurm " + abbreviate(expected);
  }

  /** Why compressing one case differs from scontrol's, or {@code null}. */
  static String compressProblem(JsonNode c) {
    List<String> hosts = strings(c.path("hosts"));
    String inOrder = Hostlist.compress(hosts);
    if (refusedCommandLine(c.path("hostlist")) || refusedCommandLine(c.path("hostlist_sorted"))) {
      // No verdict from scontrol (see refusedCommandLine): compression must still give the hosts back.
      return Hostlist.expand(inOrder).equals(hosts) && Hostlist.expand(Hostlist.compressSorted(hosts))
          .stream().sorted().toList().equals(hosts.stream().sorted().toList()) ? null
          : "'" + inOrder + "' does not expand back to " + abbreviate(hosts);
    }
    String expected = c.path("hostlist").path("result").asText();
    if (!inOrder.equals(expected)) {
      return "hostlist '" + inOrder + "', Slurm '" + expected + "'";
    }
    String sorted = Hostlist.compressSorted(hosts);
    String expectedSorted = c.path("hostlist_sorted").path("result").asText();
    if (!sorted.equals(expectedSorted)) {
      return "hostlistsorted '" + sorted + "', Slurm '" + expectedSorted + "'";
    }
    List<String> roundTrip = Hostlist.expand(inOrder);
    List<String> expectedRoundTrip = strings(c.path("roundtrip_hostnames"));
    return roundTrip.equals(expectedRoundTrip) ? null
        : "expanding '" + inOrder + "' gave " + abbreviate(roundTrip) + ", Slurm " + abbreviate(expectedRoundTrip);
  }

  static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(n -> list.add(n.asText()));
    return list;
  }

  private static String abbreviate(List<String> hosts) {
    return hosts.size() <= 12 ? hosts.toString() : hosts.subList(0, 12) + "... (" + hosts.size() + ")";
  }
}
