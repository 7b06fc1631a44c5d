package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compares {@link Hostlist} with the real {@code scontrol} on random host lists, when Slurm's client
 * is installed (scripts/setup.d/slurm.sh). {@code scontrol show hostnames} needs only a readable
 * slurm.conf, no daemon. Skipped, with the reason, where there is no scontrol; under {@code CI=true}
 * a missing scontrol fails instead (CI installs it, so its absence is a broken machine).
 */
class ScontrolDifferentialTest {

  private static final long SEED = 20261121L;
  private static Path conf;

  @BeforeAll
  static void writeMinimalConfig(@TempDir Path dir) throws IOException {
    conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=diff\nSlurmctldHost=localhost\n");
  }

  @Test
  void expansionAgreesWithScontrolOnRandomLists() throws Exception {
    assumeScontrol();
    Random random = new Random(SEED);
    for (int i = 0; i < 300; i++) {
      String input = randomHostlist(random);
      Result slurm = scontrol("hostnames", input);
      if (slurm.invalid) {
        assertThat(catchInvalid(input)).as("Slurm rejects '%s'", input).isTrue();
      } else {
        assertThat(Hostlist.expand(input)).as("expand '%s'", input).containsExactlyElementsOf(slurm.lines);
      }
    }
  }

  /** Inputs a real Slurm reads leniently (issue 9, defect 12) and near misses it rejects. */
  @Test
  void expansionAgreesWithScontrolOnLenientInputs() throws Exception {
    assumeScontrol();
    String[] inputs = {
        "n[1 - 2]", "n[1 -2]", "n[1- 2]", "n[1\t-\t2]", "n[ 1-2]", "n[1a-2]", "n[1?-3]", "n[1abc-3]", "n[1.5-3]",
        "n[+1-2]", "n[007 -9]", "n[1-2, 4]", "n[1 - 2],m[3 - 4]", "n[1-2]-[3 -4]", "n[2-]", "n [1-2]",
        "n[1-2] ,n3", " n1", "n1 ", "n[1-2 ]", "n[1 2]", "n[1 ,2]", "n[1 ]", "n[ -1-2]", "n[1-2 -3]", "n[ -]",
        "n[0x1-2]", "n[1--2]", "n[-2]", "n[]", "n[1-2-3]", "n[a-b]", "n[1a]", "n[1a-]", "n[ 1 - 3 , 5 ]"};
    for (String input : inputs) {
      Result slurm = scontrol("hostnames", input);
      if (slurm.invalid) {
        assertThat(catchInvalid(input)).as("Slurm rejects '%s'", input).isTrue();
      } else {
        assertThat(Hostlist.expand(input)).as("expand '%s'", input).containsExactlyElementsOf(slurm.lines);
      }
    }
  }

  /**
   * scontrol reads an argument that starts with '-' as an option ("invalid option -- 'n'"), which is
   * no verdict on the list: behind a first item Slurm expands it like any other (issue 22).
   */
  @Test
  void aListStartingWithADashIsExpandedAsSlurmExpandsItBehindAnotherItem() throws Exception {
    assumeScontrol();
    for (String input : new String[] {"-n[1-2]", "-n1", "-[1-2]", "--n[01-02],m", "-"}) {
      Result slurm = scontrol("hostnames", "first," + input);
      assertThat(slurm.invalid).as("Slurm accepts 'first,%s'", input).isFalse();
      assertThat(Hostlist.expand(input)).as("expand '%s'", input)
          .containsExactlyElementsOf(slurm.lines.subList(1, slurm.lines.size()));
    }
  }

  @Test
  void compressionAgreesWithScontrolOnRandomHostNames() throws Exception {
    assumeScontrol();
    Random random = new Random(SEED + 1);
    for (int i = 0; i < 80; i++) {
      List<String> hosts = new ArrayList<>();
      String prefix = pick(random, "n", "node", "rack1-node", "gpu-", "cn.");
      int count = 1 + random.nextInt(12);
      for (int h = 0; h < count; h++) {
        String p = random.nextInt(8) == 0 ? pick(random, "m", "node", "x") : prefix;
        int number = random.nextInt(random.nextBoolean() ? 12 : 130);
        String digits = random.nextInt(4) == 0 ? String.format("%03d", number) : Integer.toString(number);
        hosts.add(random.nextInt(15) == 0 ? p : p + digits);
      }
      String joined = String.join(",", hosts);
      assertThat(Hostlist.compress(hosts)).as("compress %s", joined)
          .isEqualTo(scontrol("hostlist", joined).lines.get(0));
      assertThat(Hostlist.compressSorted(hosts)).as("compressSorted %s", joined)
          .isEqualTo(scontrol("hostlistsorted", joined).lines.get(0));
    }
  }

  private static boolean catchInvalid(String input) {
    try {
      Hostlist.expand(input);
      return false;
    } catch (IllegalArgumentException e) {
      return true;
    }
  }

  private static String randomHostlist(Random random) {
    StringBuilder out = new StringBuilder();
    int items = 1 + random.nextInt(3);
    for (int i = 0; i < items; i++) {
      if (i > 0) {
        out.append(pick(random, ",", ",", " ", ",,", "\t"));
      }
      out.append(pick(random, "n", "node", "rack", "gpu-", "", "cn.", "x1c"));
      int groups = random.nextInt(5) == 0 ? 2 : 1;
      for (int g = 0; g < groups; g++) {
        if (random.nextInt(6) == 0) {
          out.append(random.nextInt(20));
          continue;
        }
        out.append('[');
        int parts = 1 + random.nextInt(3);
        for (int p = 0; p < parts; p++) {
          if (p > 0) {
            out.append(',');
          }
          int lo = random.nextInt(15);
          String loText = random.nextInt(3) == 0 ? String.format("%02d", lo) : Integer.toString(lo);
          out.append(random.nextInt(10) == 0 ? pick(random, " ", "+", "\t") : "").append(loText);
          if (random.nextBoolean()) {
            int hi = random.nextInt(6) == 0 ? Math.max(0, lo - 2) : lo + random.nextInt(12);
            // Blanks or stray text around the dash: Slurm reads some leniently (defect 12).
            out.append(random.nextInt(5) == 0 ? pick(random, " ", "a", ".5", "  ", " x") : "");
            out.append('-').append(random.nextInt(5) == 0 ? pick(random, " ", "\t", "+", "-") : "");
            out.append(random.nextInt(4) == 0 ? String.format("%03d", hi) : Integer.toString(hi));
            out.append(random.nextInt(12) == 0 ? " " : "");
          }
        }
        if (random.nextInt(12) != 0) {
          out.append(']');
        }
        if (g + 1 < groups) {
          out.append(pick(random, "-", "", "-node"));
        }
      }
      if (random.nextInt(10) == 0) {
        out.append(pick(random, "a", "-ib", "]", "[", "x2"));
      }
    }
    return out.toString();
  }

  private static String pick(Random random, String... choices) {
    return choices[random.nextInt(choices.length)];
  }

  private static void assumeScontrol() {
    boolean present = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "scontrol")));
    if (!present && "true".equals(System.getenv("CI"))) {
      fail("scontrol is not on the PATH although CI=true: scripts/setup.d/slurm.sh must install it");
    }
    assumeTrue(present, "scontrol is not installed (scripts/setup.d/slurm.sh installs it): skipped");
  }

  private static final class Result {
    final List<String> lines;
    final boolean invalid;

    Result(List<String> lines, boolean invalid) {
      this.lines = lines;
      this.invalid = invalid;
    }
  }

  private static Result scontrol(String what, String argument) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("scontrol", "show", what, argument);
    builder.environment().put("SLURM_CONF", conf.toString());
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("scontrol finished").isTrue();
    String stderr = new String(err, StandardCharsets.UTF_8);
    String stdout = new String(out, StandardCharsets.UTF_8);
    boolean invalid = stderr.contains("Invalid hostlist") || stderr.contains("error");
    List<String> lines = stdout.isEmpty() ? List.of() : Arrays.asList(stdout.split("\n", -1));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines = lines.subList(0, lines.size() - 1);
    }
    return new Result(lines, invalid);
  }
}
