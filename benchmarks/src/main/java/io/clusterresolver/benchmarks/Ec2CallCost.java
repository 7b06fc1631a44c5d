package io.clusterresolver.benchmarks;

import io.clusterresolver.testkit.SimulatedEc2;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What one {@code DescribeInstances} call costs apart from the provider: the simulation's
 * handling, its injected latency and the transfer of the page, measured with a bare
 * {@code HttpURLConnection} (keep-alive, as the SDK's url-connection client) that posts the request
 * and drains the answer unread. Pages of 5 and of 1 000 instances, with and without latency.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.Ec2CallCost [--latency-ms 20] [--calls 100]
 * </pre>
 */
public final class Ec2CallCost {

  private Ec2CallCost() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    int latencyMs = options.integer("latency-ms", 20);
    int calls = options.integer("calls", 100);
    BenchOptions.quietLogs();
    for (int n : new int[] {5, 1000}) {
      try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
        ec2.addTypical(0, n, b -> b.tag("cluster", "bench"));
        for (int latency : new int[] {0, latencyMs}) {
          ec2.latency(Duration.ofMillis(latency));
          call(ec2, 20); // warm-up
          List<Double> times = new ArrayList<>();
          long bytes = 0;
          for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            bytes = call(ec2, 1);
            times.add((System.nanoTime() - start) / 1e6);
          }
          Collections.sort(times);
          System.out.printf(Locale.ROOT, "page of %d instances (%d bytes), latency %d ms: median %.2f ms, min %.2f ms"
              + " per call (%d calls)%n", n, bytes, latency, times.get(calls / 2), times.get(0), calls);
        }
      }
    }
  }

  /** Makes {@code times} calls; returns the size of the last answer. */
  private static long call(SimulatedEc2 ec2, int times) throws Exception {
    long n = 0;
    byte[] buffer = new byte[65536];
    for (int i = 0; i < times; i++) {
      HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + ec2.port() + "/").toURL()
          .openConnection();
      c.setDoOutput(true);
      // The simulation checks the SigV4 header's shape only.
      c.setRequestProperty("Authorization",
          "AWS4-HMAC-SHA256 Credential=AKIABENCHMARK0000000/20260101/us-east-1/ec2/aws4_request, SignedHeaders=host");
      c.setRequestProperty("Content-Type", "application/x-www-form-urlencoded");
      try (OutputStream out = c.getOutputStream()) {
        out.write("Action=DescribeInstances&Version=2016-11-15&MaxResults=1000".getBytes(StandardCharsets.UTF_8));
      }
      if (c.getResponseCode() != 200) {
        throw new IllegalStateException("HTTP " + c.getResponseCode());
      }
      n = 0;
      try (InputStream in = c.getInputStream()) {
        for (int r; (r = in.read(buffer)) > 0; ) {
          n += r;
        }
      }
    }
    return n;
  }
}
