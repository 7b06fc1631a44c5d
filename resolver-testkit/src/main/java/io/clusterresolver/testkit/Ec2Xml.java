package io.clusterresolver.testkit;

import java.time.temporal.ChronoUnit;

/** The EC2 Query API XML of the simulated resources, as the API reference shows it. */
final class Ec2Xml {

  private Ec2Xml() {}

  static String reservation(SimulatedInstance i) {
    StringBuilder xml = new StringBuilder(1600);
    String launch = i.launchTime().truncatedTo(ChronoUnit.MILLIS).toString();
    xml.append("    <item>\n      <reservationId>r-").append(i.instanceId().replace("i-", ""))
        .append("</reservationId>\n      <ownerId>123456789012</ownerId>\n      <groupSet/>\n      <instancesSet>\n")
        .append("        <item>\n          <instanceId>").append(Ec2QueryWire.esc(i.instanceId())).append("</instanceId>\n")
        .append("          <imageId>ami-0abcdef1234567890</imageId>\n")
        .append("          <instanceState><code>").append(i.state().code()).append("</code><name>")
        .append(i.state().apiName()).append("</name></instanceState>\n")
        .append("          <privateDnsName>").append(Ec2QueryWire.esc(i.privateDns().orElse(""))).append("</privateDnsName>\n")
        .append("          <dnsName>").append(Ec2QueryWire.esc(i.publicDns().orElse(""))).append("</dnsName>\n")
        .append("          <amiLaunchIndex>0</amiLaunchIndex>\n")
        .append("          <instanceType>").append(Ec2QueryWire.esc(i.instanceType())).append("</instanceType>\n")
        .append("          <launchTime>").append(launch).append("</launchTime>\n")
        .append("          <placement><availabilityZone>").append(Ec2QueryWire.esc(i.availabilityZone()))
        .append("</availabilityZone><groupName/><tenancy>default</tenancy></placement>\n")
        .append("          <monitoring><state>disabled</state></monitoring>\n");
    if (i.subnetId() != null) {
      xml.append("          <subnetId>").append(Ec2QueryWire.esc(i.subnetId())).append("</subnetId>\n");
    }
    if (i.vpcId() != null) {
      xml.append("          <vpcId>").append(Ec2QueryWire.esc(i.vpcId())).append("</vpcId>\n");
    }
    i.privateIpv4().ifPresent(ip -> xml.append("          <privateIpAddress>").append(Ec2QueryWire.esc(ip)).append("</privateIpAddress>\n"));
    i.publicIpv4().ifPresent(ip -> xml.append("          <ipAddress>").append(Ec2QueryWire.esc(ip)).append("</ipAddress>\n"));
    xml.append("          <architecture>x86_64</architecture>\n          <rootDeviceType>ebs</rootDeviceType>\n");
    if (!i.tags().isEmpty()) {
      xml.append("          <tagSet>\n");
      i.tags().forEach((k, v) -> xml.append("            <item><key>").append(Ec2QueryWire.esc(k)).append("</key><value>")
          .append(Ec2QueryWire.esc(v)).append("</value></item>\n"));
      xml.append("          </tagSet>\n");
    }
    if (i.state() != SimulatedInstance.State.TERMINATED) {
      xml.append("          <networkInterfaceSet>\n            <item>\n              <networkInterfaceId>eni-")
          .append(i.instanceId().replace("i-", "")).append("</networkInterfaceId>\n");
      if (i.subnetId() != null) {
        xml.append("              <subnetId>").append(Ec2QueryWire.esc(i.subnetId())).append("</subnetId>\n");
      }
      if (i.vpcId() != null) {
        xml.append("              <vpcId>").append(Ec2QueryWire.esc(i.vpcId())).append("</vpcId>\n");
      }
      xml.append("              <status>in-use</status>\n");
      i.privateIpv4().ifPresent(ip -> xml.append("              <privateIpAddress>").append(Ec2QueryWire.esc(ip))
          .append("</privateIpAddress>\n"));
      i.ipv6().ifPresent(ip -> xml.append("              <ipv6AddressesSet><item><ipv6Address>").append(Ec2QueryWire.esc(ip))
          .append("</ipv6Address><isPrimaryIpv6>true</isPrimaryIpv6></item></ipv6AddressesSet>\n"));
      xml.append("            </item>\n          </networkInterfaceSet>\n");
    }
    i.ipv6().ifPresent(ip -> xml.append("          <ipv6Address>").append(Ec2QueryWire.esc(ip)).append("</ipv6Address>\n"));
    xml.append("        </item>\n      </instancesSet>\n    </item>\n");
    return xml.toString();
  }
}
