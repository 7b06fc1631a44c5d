package io.clusterresolver.cli;

import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The simulated EC2 of {@link RelayHostsIT} as a process of its own on one test host: the
 * simulation listens on loopback, so a forwarder takes the host's address and port and passes each
 * connection on. Prints the properties that point a provider at it ({@code property KEY=VALUE}), the
 * cluster the fleet itself says ({@code expected ADDR,ADDR,...}) and {@code ready}; answers
 * {@code calls} on standard input with the {@code DescribeInstances} calls so far; ends at end of input.
 *
 * <p>Arguments: {@code ADDRESS PORT INSTANCES}.
 */
public final class NetnsCloud {

  private NetnsCloud() {}

  public static void main(String[] args) throws Exception {
    String address = args[0];
    int port = Integer.parseInt(args[1]);
    try (SimulatedEc2 ec2 = SimulatedEc2.start(); ServerSocket front = new ServerSocket()) {
      ec2.addTypical(0, Integer.parseInt(args[2]), b -> b.instanceType("m5.large"));
      front.bind(new InetSocketAddress(address, port), 512);
      int backPort = ec2.endpoint().getPort();
      Loopback.forward(front, backPort);
      String loopback = "127.0.0.1:" + backPort;
      for (Map.Entry<String, String> e : ec2.providerProperties().entrySet()) {
        System.out.println("property " + e.getKey() + "=" + e.getValue().replace(loopback, address + ":" + port));
      }
      System.out.println("expected " + ec2.instances().stream().map(i -> i.privateIpv4().orElseThrow() + ":8888")
          .collect(Collectors.joining(",")));
      System.out.println("ready");
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("calls")) {
          System.out.println("calls " + ec2.callCount("DescribeInstances"));
          System.out.flush();
        }
      }
    }
  }
}
