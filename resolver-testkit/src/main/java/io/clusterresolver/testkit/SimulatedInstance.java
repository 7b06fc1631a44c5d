package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One EC2 instance of a {@link SimulatedEc2} fleet, as {@code DescribeInstances} reports it.
 * Immutable: change an instance with {@link SimulatedEc2#update} and {@link #toBuilder()}. Two instances with the
 * same values are equal.
 *
 * @param instanceId the instance id, such as {@code i-0123456789abcdef0}
 * @param instanceType the instance type, such as {@code p4d.24xlarge}
 * @param state the instance state
 * @param privateIpv4 the primary private IPv4 address, if any
 * @param publicIpv4 the public IPv4 address, if any
 * @param ipv6 the primary IPv6 address, if any
 * @param privateDns the private DNS name, if any
 * @param publicDns the public DNS name, if any
 * @param tags the instance's tags
 * @param availabilityZone the availability zone, such as {@code us-east-1a}
 * @param vpcId the VPC id
 * @param subnetId the subnet id
 * @param launchTime when it was launched
 */
public record SimulatedInstance(
    String instanceId,
    String instanceType,
    State state,
    Optional<String> privateIpv4,
    Optional<String> publicIpv4,
    Optional<String> ipv6,
    Optional<String> privateDns,
    Optional<String> publicDns,
    Map<String, String> tags,
    String availabilityZone,
    String vpcId,
    String subnetId,
    Instant launchTime) {

  /** EC2 instance states with their numeric codes; EC2's names are the constants' in lower case, with dashes. */
  public enum State {
    PENDING(0), RUNNING(16), SHUTTING_DOWN(32), TERMINATED(48), STOPPING(64), STOPPED(80);

    private final int code;

    State(int code) {
      this.code = code;
    }

    /** The name EC2 uses, such as {@code running} or {@code shutting-down}. */
    public String apiName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public int code() {
      return code;
    }
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

  /** Validates the values and keeps an unmodifiable copy of the tags. */
  public SimulatedInstance {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(state, "state");
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
  }

  /** A builder with this instance's values. */
  public Builder toBuilder() {
    Builder b = new Builder(instanceId).instanceType(instanceType).state(state).privateIpv4(privateIpv4.orElse(null))
        .publicIpv4(publicIpv4.orElse(null)).ipv6(ipv6.orElse(null)).privateDns(privateDns.orElse(null))
        .publicDns(publicDns.orElse(null)).availabilityZone(availabilityZone).vpcId(vpcId).subnetId(subnetId)
        .launchTime(launchTime);
    b.tags.putAll(tags);
    return b;
  }

  @Override
  public String toString() {
    return instanceId + "(" + instanceType + ", " + state.apiName() + ", " + privateIpv4.orElse("-") + ")";
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
      return new SimulatedInstance(instanceId, instanceType, state, Optional.ofNullable(privateIpv4),
          Optional.ofNullable(publicIpv4), Optional.ofNullable(ipv6), Optional.ofNullable(privateDns),
          Optional.ofNullable(publicDns), tags, availabilityZone, vpcId, subnetId, launchTime);
    }
  }
}
