package io.clusterresolver.testkit;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * Ready-made Compute Engine projects for tests and benchmarks, built only from
 * {@link SimulatedGceInstance}'s public fields, so a test can compute its expectation from
 * {@link SimulatedGce#instances()} on its own.
 */
public final class GceScenarios {

  /** The four zones of {@link #largeProject}, with the time zones their clocks follow. */
  public static final Map<String, ZoneId> ZONES = Map.of(
      "us-east1-b", ZoneId.of("America/New_York"),
      "us-west1-a", ZoneId.of("America/Los_Angeles"),
      "europe-west4-a", ZoneId.of("Europe/Amsterdam"),
      "asia-east1-a", ZoneId.of("Asia/Taipei"));

  /** The order the zones are dealt out in. */
  public static final List<String> ZONE_ORDER = List.of("us-east1-b", "us-west1-a", "europe-west4-a", "asia-east1-a");

  /** The moment the clocks of the US zones went back in 2025 (02:00 EDT, 2025-11-02). */
  public static final Instant US_DST_END = Instant.parse("2025-11-02T06:00:00Z");

  private GceScenarios() {}

  /**
   * A project of {@code n} instances over four zones, the cluster being the instances labelled
   * {@code cluster=train}: instance {@code i} ({@code train-i}) is in zone {@code ZONE_ORDER[i % 4]};
   * every 10th is a label decoy ({@code cluster=train-old}), every 25th has no {@code cluster} label
   * but {@code team=train}; every 13th is not running (STOPPED, TERMINATED, STAGING, SUSPENDED in
   * turn); every 50th is a TPU VM host ({@code tpu_name}, {@code tpu_cores}); instance 7 is IPv6-only;
   * every 8th is an {@code a2-highgpu-1g} and every 8th + 4 a {@code g2-standard-24} (bundled GPUs),
   * every 6th otherwise an {@code n1-standard-8} with two attached T4s. Creation times: two instances
   * per instant, {@code 6 s × ((7 i mod n) / 2)} after 2025-11-02T05:00Z, written with the zone's UTC
   * offset of that moment (the US zones change offset at {@link #US_DST_END}); ids alternate
   * between 7 and 11 digits, so text order and numeric order differ.
   */
  public static SimulatedGce largeProject(SimulatedGce gce, int n) {
    Instant base = Instant.parse("2025-11-02T05:00:00Z");
    String[] notRunning = {"STOPPED", "TERMINATED", "STAGING", "SUSPENDED"};
    for (int i = 0; i < n; i++) {
      String zone = ZONE_ORDER.get(i % 4);
      long id = i % 2 == 0 ? 5_000_000L + i : 40_000_000_000L + i;
      Instant created = base.plusSeconds(6L * ((7L * i % n) / 2));
      SimulatedGceInstance.Builder b = SimulatedGceInstance.builder("train-" + i, id).zone(zone)
          .networkIp("10." + (i / 65536) + "." + (i / 256 % 256) + "." + (i % 256))
          .creationTimestamp(created.atZone(ZONES.get(zone)).toOffsetDateTime());
      if (i % 25 == 0) {
        b.label("team", "train");
      } else {
        b.label("cluster", i % 10 == 0 ? "train-old" : "train");
      }
      if (i % 13 == 0) {
        b.status(notRunning[(i / 13) % notRunning.length]);
      }
      if (i % 50 == 0) {
        b.label("tpu_name", "pod-" + i).label("tpu_cores", "8").machineType("ct5lp-hightpu-4t");
      } else if (i % 8 == 0) {
        b.machineType("a2-highgpu-1g");
      } else if (i % 8 == 4) {
        b.machineType("g2-standard-24");
      } else if (i % 6 == 0) {
        b.machineType("n1-standard-8").guestAccelerators("nvidia-tesla-t4", 2);
      }
      if (i == 7) {
        b.networkIp(null).ipv6("2600:1900:4000:7::7");
      }
      gce.add(b.build());
    }
    return gce;
  }
}
