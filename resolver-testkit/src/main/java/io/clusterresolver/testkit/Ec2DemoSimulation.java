package io.clusterresolver.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code aws} demo: a {@link SimulatedEc2} with four running instances tagged
 * {@code cluster=demo} (two {@code p4d.24xlarge} with 8 GPUs each, two {@code c5.xlarge}), one
 * stopped instance and one instance of another cluster, with this process on the first instance.
 */
public final class Ec2DemoSimulation implements Simulation {

  private final SimulatedEc2 ec2;

  private Ec2DemoSimulation(SimulatedEc2 ec2) {
    this.ec2 = ec2;
  }

  /** Starts the demo fleet. */
  public static Ec2DemoSimulation start() {
    SimulatedEc2 ec2 = SimulatedEc2.start();
    ec2.addTypical(0, 2, b -> b.instanceType("p4d.24xlarge").tag("cluster", "demo").tag("Name", "trainer")
        .availabilityZone("us-east-1a"));
    ec2.addTypical(2, 2, b -> b.instanceType("c5.xlarge").tag("cluster", "demo").tag("Name", "loader")
        .availabilityZone("us-east-1b"));
    ec2.addTypical(4, 1, b -> b.instanceType("c5.xlarge").tag("cluster", "demo")
        .state(SimulatedInstance.State.STOPPED));
    ec2.addTypical(5, 1, b -> b.instanceType("m5.large").tag("cluster", "other"));
    ec2.identifyAs(SimulatedInstance.typical(0).build().instanceId());
    return new Ec2DemoSimulation(ec2);
  }

  /** The simulated EC2, to change the fleet while it runs. */
  public SimulatedEc2 ec2() {
    return ec2;
  }

  @Override
  public String provider() {
    return "aws";
  }

  @Override
  public Map<String, String> properties() {
    Map<String, String> p = new LinkedHashMap<>(ec2.providerProperties());
    p.put("clusterresolver.aws.tags", "cluster=demo");
    return p;
  }

  @Override
  public String description() {
    return "simulated EC2 (" + ec2.region() + ") at " + ec2.endpoint() + ": " + ec2.instances().size()
        + " instances, 4 running with tag cluster=demo; this process is "
        + SimulatedInstance.typical(0).build().instanceId();
  }

  @Override
  public void close() {
    ec2.close();
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory implements Simulation.Factory {
    @Override
    public String provider() {
      return "aws";
    }

    @Override
    public Simulation startDemo() {
      return start();
    }
  }
}
