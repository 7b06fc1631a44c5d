package io.clusterresolver.testkit;

/**
 * The {@code aws} demo: a {@link SimulatedEc2} with four running instances tagged
 * {@code cluster=demo} (two {@code p4d.24xlarge} with 8 GPUs each, two {@code c5.xlarge}), one
 * stopped instance and one instance of another cluster, with this process on the first instance.
 */
public final class Ec2DemoSimulation extends DemoSimulation<SimulatedEc2> {

  private Ec2DemoSimulation(SimulatedEc2 ec2) {
    super("aws", ec2, with(ec2.providerProperties(), "clusterresolver.aws.tags", "cluster=demo"));
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
    return simulation();
  }

  @Override
  public String description() {
    return "simulated EC2 (" + ec2().region() + ") at " + ec2().endpoint() + ": " + ec2().instances().size()
        + " instances, 4 running with tag cluster=demo; this process is "
        + SimulatedInstance.typical(0).build().instanceId();
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory extends Starter {
    /** For {@link java.util.ServiceLoader}. */
    public Factory() {
      super("aws", Ec2DemoSimulation::start);
    }
  }
}
