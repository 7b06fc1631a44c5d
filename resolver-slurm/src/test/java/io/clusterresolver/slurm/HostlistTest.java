package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Expansion and compression as real Slurm 22.05 prints them (cases checked with scontrol). */
class HostlistTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "node1|node1",
      "node[1-4]|node1,node2,node3,node4",
      "node[01-04]|node01,node02,node03,node04",
      "node[8-11]|node8,node9,node10,node11",
      "node[098-101]|node098,node099,node100,node101",
      "node[1-010]|node1,node2,node3,node4,node5,node6,node7,node8,node9,node10",
      "node[01-1]|node01",
      "node[1-03]|node1,node2,node3",
      "node[10,9,8]|node10,node9,node8",
      "node[1,1,2]|node1,node1,node2",
      "node[001,01,1]|node001,node01,node1",
      "'n1,m1,n2,m2'|n1,m1,n2,m2",
      "rack[1-2]-node[01-03]|rack1-node01,rack1-node02,rack1-node03,rack2-node01,rack2-node02,rack2-node03",
      "a[1-2]b[3-4]c[5-6]|a1b3c5,a1b3c6,a2b3c5,a2b3c6,a1b4c5,a1b4c6,a2b4c5,a2b4c6",
      "[1-2]node[3-4]|1node3,1node4,2node3,2node4",
      "[01-03]|01,02,03",
      "'node1, node2'|node1,node2",
      "',node1'|node1",
      "node[ 1-2]|node01,node02",
      "node[+1-3]|node01,node02,node03",
      "node[1-]|node1",
      "node[|node]",
      "node[1-3|node]",
      "node[1-2]-[3|node[1-2]-]",
      "[1-3|1-3",
      "node1-3]|node1-3]",
      "node(1-3)|node(1-3)",
      "x[1-2y[3-4]|x[1-2y3,x[1-2y4",
      "node[4294967294-4294967296]|node4294967294,node4294967295,node4294967296",
      "n99999999999999999999999|n00018446744073709551615",
      "10.0.0.1|10.0.0.1",
      // Issue 9, defect 12, recorded with scontrol 22.05.8: text between the lower bound's digits
      // and the dash is skipped but counted in the width; blanks before the upper bound are skipped.
      "n[1 - 2]|n01,n02",
      "n[1 -2]|n01,n02",
      "n[1- 2]|n1,n2",
      "'n[1\t-\t2]'|n01,n02",
      "n[1a-2]|n01,n02",
      "n[1abc-3]|n0001,n0002,n0003",
      "n[1.5-3]|n001,n002,n003",
      "n[007 -9]|n0007,n0008,n0009",
      "'n[1-2, 4]'|n1,n2,n04",
      "'n[1 - 2],m[3 - 4]'|n01,n02,m03,m04",
      "n[1-2]-[3 -4]|n1-03,n1-04,n2-03,n2-04",
  })
  void expandsLikeScontrol(String input, String expected) {
    assertThat(Hostlist.expand(input)).containsExactly(expected.split(","));
  }

  @Test
  void whitespaceSeparatesAndEmptyItemsAreSkipped() {
    assertThat(Hostlist.expand("node1\tnode2  node3,,")).containsExactly("node1", "node2", "node3");
    assertThat(Hostlist.expand("")).isEmpty();
    assertThat(Hostlist.expand("[")).containsExactly("");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "node[3-1]", "node[10-1]", "node[]", "node[-3]", "node[,]", "node[1,]", "node[1,,2]",
      "node[1-10x2]", "node[1-2]a", "node[01-02]-eth0", "node[1-2].", "node[1-2]0", "[1-2]node",
      "rack[1-2]node[1-2]-ib", "rack[2-1]-node[1-2]", "node[1-2]]]", "node[a-c]", "node[1--3]",
      "node[1-65537]", "n[1-2 ]", "n[1 2]", "n[1 ,2]", "n[1 ]", "n[ -1-2]", "n[1-2 -3]", "n[ -]",
      "n[0x1-2]"})
  void rejectsWhatSlurmRejects(String input) {
    assertThatThrownBy(() -> Hostlist.expand(input))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(input.length() > 10 ? input.substring(0, 10) : input);
  }

  @Test
  void aRangeEndingAtTheLargestNumberExpandsToNothingAsInSlurm() {
    // scontrol prints no host at all (2^64-1 is its "empty range" marker); a single such host is fine.
    assertThat(Hostlist.expand("x,n[18446744073709551613-18446744073709551615],y")).isEmpty();
    assertThat(Hostlist.expand("n18446744073709551614,n18446744073709551615")).isEmpty();
    assertThat(Hostlist.expand("a[18446744073709551614-18446744073709551615]b[1-2]")).isEmpty();
    assertThat(Hostlist.expand("n[18446744073709551615,1]")).containsExactly("n18446744073709551615", "n1");
    assertThat(Hostlist.count("n[18446744073709551614-18446744073709551615]")).isZero();
  }

  @Test
  void aRangeHoldsAtMost65536Hosts() {
    List<String> hosts = Hostlist.expand("node[1-65536]");
    assertThat(hosts).hasSize(65536).startsWith("node1").endsWith("node65536");
    assertThatThrownBy(() -> Hostlist.expand("node[1-65537]")).hasMessageContaining("too many hosts");
  }

  @Test
  @Timeout(10)
  void hostileInputNeitherHangsNorExhaustsMemory() {
    assertThatThrownBy(() -> Hostlist.expand("n[0-99999999999]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too many hosts");
    assertThatThrownBy(() -> Hostlist.expand("n[0-65535][0-65535]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than " + Hostlist.MAX_HOSTS);
    assertThatThrownBy(() -> Hostlist.expand("a[0-65535],".repeat(20)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than");
    assertThat(Hostlist.count("n[1-65536][1-3]")).isEqualTo(196_608);
  }

  @ParameterizedTest(name = "{0} -> {1} / sorted {2}")
  @CsvSource(delimiter = '|', value = {
      "node1,node2,node3|node[1-3]|node[1-3]",
      "a,b,c|a,b,c|a,b,c",
      "n1,n2,m1,m2|n[1-2],m[1-2]|m[1-2],n[1-2]",
      "1,2,3|[1-3]|[1-3]",
      "node3,node1,node2|node[3,1-2]|node[1-3]",
      "node9,node10,node09|node[9-10,09]|node[9-10,09]",
      "node1,node001,node01|node[1,001,01]|node[1,01,001]",
      "rack1-node01,rack1-node02,rack2-node01|rack1-node[01-02],rack2-node01|rack1-node[01-02],rack2-node01",
      "node1a,node2a|node1a,node2a|node1a,node2a",
      "node18446744073709551614,node18446744073709551615|node[18446744073709551614-18446744073709551615]|node[18446744073709551614-18446744073709551615]",
      "gpu055,gpu050|gpu[055,050]|gpu[050,055]",
      "rack10-n1,rack2-n1|rack10-n1,rack2-n1|rack2-n1,rack10-n1",
      "n1,n1|n[1,1]|n[1,1]",
      "n1,n2,n3,n2,n3,n4|n[1-3,2-4]|n[1-2,2-3,3-4]",
      "node,node1|node,node1|node,node1",
      "n5,n1-3,n2|n5,n1-3,n2|n[2,5],n1-3",
  })
  void compressesLikeScontrol(String hosts, String inOrder, String sorted) {
    List<String> list = List.of(hosts.split(","));
    assertThat(Hostlist.compress(list)).isEqualTo(inOrder);
    assertThat(Hostlist.compressSorted(list)).isEqualTo(sorted);
    if (!hosts.contains("18446744073709551615")) {
      assertThat(Hostlist.expand(Hostlist.compress(list))).containsExactlyElementsOf(list);
    }
  }

  @Test
  void compressionRoundTripsLargeLists() {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      hosts.add("rack" + (i / 1000) + "-node" + String.format("%03d", i % 1000));
    }
    String compressed = Hostlist.compress(hosts);
    assertThat(compressed).startsWith("rack0-node[000-999],rack1-node[000-999]");
    assertThat(Hostlist.expand(compressed)).isEqualTo(hosts);
  }

  @Test
  void expansionOfALargeListIsFast() {
    // Not a benchmark (see benchmarks/): a guard against accidental quadratic behaviour.
    long start = System.nanoTime();
    assertThat(Hostlist.expand("n[1-50000],m[1-50000]")).hasSize(100_000);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    List<String> plain = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      plain.add("host" + i + "x");
    }
    start = System.nanoTime(); // many items without brackets before the last bracket: once quadratic
    assertThat(Hostlist.expand(String.join(",", plain) + ",n[1-2]")).hasSize(50_002);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }
}
