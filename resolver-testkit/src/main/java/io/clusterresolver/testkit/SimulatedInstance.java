package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One EC2 instance of a {@link SimulatedEc2} fleet, as {@code DescribeInstances} reports it.
 * Immutable: change an instance with {@link SimulatedEc2#update} and {@link #toBuilder()}.
 */
public final class SimulatedInstance {

  /** EC2 instance states with their numeric codes. */
  public enum State {
    PENDING("pending", 0),
    RUNNING("running", 16),
    SHUTTING_DOWN("shutting-down", 32),
    TERMINATED("terminated", 48),
    STOPPING("stopping", 64),
    STOPPED("stopped", 80);

    private final String apiName;
    private final int code;

    State(String apiName, int code) {
      this.apiName = apiName;
      this.code = code;
    }

    /** The name EC2 uses, such as {@code running}. */
    public String apiName() {
      return apiName;
    }

    public int code() {
      return code;
    }
  }

  private final String instanceId;
  private final String instanceType;
  private final State state;
  private final String privateIpv4;
  private final String publicIpv4;
  private final String ipv6;
  private final String privateDns;
  private final String publicDns;
  private final Map<String, String> tags;
  private final String availabilityZone;
  private final String vpcId;
  private final String subnetId;
  private final Instant launchTime;
  /** This instance's DescribeInstances XML, built once: the instance never changes. */
  private volatile String xml;

  private SimulatedInstance(Builder b) {
    this.instanceId = b.instanceId;
    this.instanceType = b.instanceType;
    this.state = b.state;
    this.privateIpv4 = b.privateIpv4;
    this.publicIpv4 = b.publicIpv4;
    this.ipv6 = b.ipv6;
    this.privateDns = b.privateDns;
    this.publicDns = b.publicDns;
    this.tags = Collections.unmodifiableMap(new LinkedHashMap<>(b.tags));
    this.availabilityZone = b.availabilityZone;
    this.vpcId = b.vpcId;
    this.subnetId = b.subnetId;
    this.launchTime = b.launchTime;
  }

  /** A running {@code t3.micro} in {@code us-east-1a} with no addresses yet. */
  public static Builder builder(String instanceId) {
    return new Builder(instanceId);
  }

  /**
   * A typical running instance: private IPv4 {@code 10.0.x.y}, its private DNS name, and a launch
   * time {@code index} seconds after 2026-01-01, so instances built with increasing indices are in
   * creation order.
   */
  public static Builder typical(int index) {
    String ip = "10.0." + ((index >> 8) & 0xff) + "." + (index & 0xff);
    return builder(String.format("i-%017x", index + 1L))
        .privateIpv4(ip)
        .privateDns("ip-" + ip.replace('.', '-') + ".ec2.internal")
        .launchTime(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(index));
  }

  public String instanceId() {
    return instanceId;
  }

  public String instanceType() {
    return instanceType;
  }

  public State state() {
    return state;
  }

  public Optional<String> privateIpv4() {
    return Optional.ofNullable(privateIpv4);
  }

  public Optional<String> publicIpv4() {
    return Optional.ofNullable(publicIpv4);
  }

  public Optional<String> ipv6() {
    return Optional.ofNullable(ipv6);
  }

  public Optional<String> privateDns() {
    return Optional.ofNullable(privateDns);
  }

  public Optional<String> publicDns() {
    return Optional.ofNullable(publicDns);
  }

  public Map<String, String> tags() {
    return tags;
  }

  public String availabilityZone() {
    return availabilityZone;
  }

  public String vpcId() {
    return vpcId;
  }

  public String subnetId() {
    return subnetId;
  }

  public Instant launchTime() {
    return launchTime;
  }

  String xml(java.util.function.Function<SimulatedInstance, String> render) {
    String x = xml;
    if (x == null) {
      x = render.apply(this);
      xml = x;
    }
    return x;
  }

  public Builder toBuilder() {
    Builder b = new Builder(instanceId);
    b.instanceType = instanceType;
    b.state = state;
    b.privateIpv4 = privateIpv4;
    b.publicIpv4 = publicIpv4;
    b.ipv6 = ipv6;
    b.privateDns = privateDns;
    b.publicDns = publicDns;
    b.tags.putAll(tags);
    b.availabilityZone = availabilityZone;
    b.vpcId = vpcId;
    b.subnetId = subnetId;
    b.launchTime = launchTime;
    return b;
  }

  @Override
  public String toString() {
    return instanceId + "(" + instanceType + ", " + state.apiName() + ", " + (privateIpv4 == null ? "-" : privateIpv4)
        + ")";
  }

  /** Builds a {@link SimulatedInstance}. */
  public static final class Builder {
    private final String instanceId;
    private String instanceType = "t3.micro";
    private State state = State.RUNNING;
    private String privateIpv4;
    private String publicIpv4;
    private String ipv6;
    private String privateDns;
    private String publicDns;
    private final Map<String, String> tags = new LinkedHashMap<>();
    private String availabilityZone = "us-east-1a";
    private String vpcId = "vpc-0a1b2c3d";
    private String subnetId = "subnet-0a1b2c3d";
    private Instant launchTime = Instant.parse("2026-01-01T00:00:00Z");

    private Builder(String instanceId) {
      this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
    }

    public Builder instanceType(String instanceType) {
      this.instanceType = Objects.requireNonNull(instanceType);
      return this;
    }

    public Builder state(State state) {
      this.state = Objects.requireNonNull(state);
      return this;
    }

    public Builder privateIpv4(String privateIpv4) {
      this.privateIpv4 = privateIpv4;
      return this;
    }

    public Builder publicIpv4(String publicIpv4) {
      this.publicIpv4 = publicIpv4;
      return this;
    }

    public Builder ipv6(String ipv6) {
      this.ipv6 = ipv6;
      return this;
    }

    public Builder privateDns(String privateDns) {
      this.privateDns = privateDns;
      return this;
    }

    public Builder publicDns(String publicDns) {
      this.publicDns = publicDns;
      return this;
    }

    public Builder tag(String key, String value) {
      tags.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    public Builder removeTag(String key) {
      tags.remove(key);
      return this;
    }

    public Builder availabilityZone(String availabilityZone) {
      this.availabilityZone = Objects.requireNonNull(availabilityZone);
      return this;
    }

    public Builder vpcId(String vpcId) {
      this.vpcId = vpcId;
      return this;
    }

    public Builder subnetId(String subnetId) {
      this.subnetId = subnetId;
      return this;
    }

    public Builder launchTime(Instant launchTime) {
      this.launchTime = Objects.requireNonNull(launchTime);
      return this;
    }

    public SimulatedInstance build() {
      return new SimulatedInstance(this);
    }
  }
}
