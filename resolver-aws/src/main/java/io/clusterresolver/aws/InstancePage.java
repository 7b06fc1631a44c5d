package io.clusterresolver.aws;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.Rfc3339;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLStreamException;

/**
 * One {@code DescribeInstances} page read with StAX ({@link AnswerXml}), keeping only what a member needs: the SDK's
 * own unmarshalling builds a DOM and then a model of every field (about 70 µs per instance on the
 * resolving thread, most of a warm resolve at 10 000 instances); this reads the same XML once.
 * Field names and nesting are those of the EC2 API reference ({@code reservationSet/item/
 * instancesSet/item}); fields of nested sets (a network interface's {@code privateIpAddress}) never
 * stand in for the instance's own.
 *
 * @param instances the instances of the page, in document order
 * @param nextToken the token of the next page, or {@code null} on the last
 * @param ec2Answer whether the document is a {@code DescribeInstancesResponse}: any other well-formed
 *     XML (a proxy's XHTML page) reads as a page without instances, which is not what it is
 */
record InstancePage(List<Instance> instances, String nextToken, boolean ec2Answer) {

  /** The root element of every {@code DescribeInstances} answer. */
  static final String ROOT = "DescribeInstancesResponse";

  /** What is kept of one instance. */
  record Instance(String id, String state, String type, Instant launchTime, Map<String, String> tags,
      Map<AddressType, String> addresses) {

    /** The address of a type, or empty when the instance has none (yet). */
    Optional<String> address(AddressType type) {
      return Optional.ofNullable(addresses.get(type));
    }
  }

  /**
   * Reads a page.
   *
   * @throws XMLStreamException when the body is not a complete, well-formed answer
   */
  static InstancePage read(InputStream body) throws XMLStreamException {
    try (AnswerXml xml = AnswerXml.open(body)) {
      List<Instance> instances = new ArrayList<>();
      // Tags, types and states repeat across a fleet: one copy of each text per page.
      Map<String, String> texts = new HashMap<>();
      String nextToken = null;
      Builder current = null;
      String tagKey = null;
      String tagValue = null;
      String ipv6 = null;
      boolean ipv6Primary = false;
      String root = null;
      while (xml.next()) {
        int depth = xml.depth();
        String name = xml.name();
        if (!xml.atStart()) {
          if (current != null && depth == 7 && name.equals("item") && "tagSet".equals(xml.ancestor(1))) {
            // A tag is kept once its item closes: key and value may come in either order.
            if (tagKey != null) {
              current.tags.put(tagKey, tagValue == null ? "" : tagValue);
            }
            tagKey = null;
            tagValue = null;
          } else if (current != null && depth == 9 && name.equals("item")
              && "ipv6AddressesSet".equals(xml.ancestor(1))) {
            current.eniIpv6(ipv6, ipv6Primary);
            ipv6 = null;
            ipv6Primary = false;
          } else if (current != null && depth == 5 && name.equals("item") && "instancesSet".equals(xml.ancestor(1))) {
            instances.add(current.build());
            current = null;
          }
        } else if (depth == 1) {
          root = name;
        } else if (depth == 5 && name.equals("item") && "instancesSet".equals(xml.ancestor(1))) {
          current = new Builder();
        } else if (current != null && depth == 6) {
          switch (name) {
            case "instanceId" -> current.id = xml.text();
            case "instanceType" -> current.type = once(texts, xml.text());
            case "launchTime" -> current.launchTime = instant(xml.text());
            case "privateIpAddress" -> current.address(AddressType.PRIVATE_IPV4, xml.text());
            case "ipAddress" -> current.address(AddressType.PUBLIC_IPV4, xml.text());
            case "privateDnsName" -> current.address(AddressType.PRIVATE_DNS, xml.text());
            case "dnsName" -> current.address(AddressType.PUBLIC_DNS, xml.text());
            case "ipv6Address" -> current.topIpv6 = emptyToNull(xml.text());
            default -> { }
          }
        } else if (current != null && depth == 7 && name.equals("name") && "instanceState".equals(xml.ancestor(1))) {
          current.state = once(texts, xml.text());
        } else if (current != null && depth == 8 && "tagSet".equals(xml.ancestor(2))) {
          if (name.equals("key")) {
            tagKey = once(texts, xml.text());
          } else if (name.equals("value")) {
            tagValue = once(texts, xml.text());
          }
        } else if (current != null && depth == 10 && "ipv6AddressesSet".equals(xml.ancestor(2))
            && "networkInterfaceSet".equals(xml.ancestor(4))) {
          if (name.equals("ipv6Address")) {
            ipv6 = emptyToNull(xml.text());
          } else if (name.equals("isPrimaryIpv6")) {
            ipv6Primary = "true".equalsIgnoreCase(xml.text().trim());
          }
        } else if (depth == 2 && name.equals("nextToken")) {
          nextToken = emptyToNull(xml.text());
        }
      }
      xml.requireComplete();
      return new InstancePage(List.copyOf(instances), nextToken, ROOT.equals(root));
    }
  }

  static Instant instant(String text) throws XMLStreamException {
    try {
      return Rfc3339.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new XMLStreamException("launchTime '" + text + "' is not an ISO-8601 instant");
    }
  }

  private static String once(Map<String, String> texts, String s) {
    String known = texts.putIfAbsent(s, s);
    return known != null ? known : s;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static final class Builder {
    String id;
    String state;
    String type;
    Instant launchTime;
    String topIpv6;
    String primaryEniIpv6;
    String firstEniIpv6;
    final Map<String, String> tags = new LinkedHashMap<>();
    final Map<AddressType, String> addresses = new LinkedHashMap<>();

    void address(AddressType type, String value) {
      // As the SDK model path did: an empty element is no address, any other text is kept as sent.
      if (!value.isEmpty()) {
        addresses.put(type, value);
      }
    }

    void eniIpv6(String address, boolean primary) {
      if (address == null) {
        return;
      }
      if (primary && primaryEniIpv6 == null) {
        primaryEniIpv6 = address;
      }
      if (firstEniIpv6 == null) {
        firstEniIpv6 = address;
      }
    }

    Instance build() throws XMLStreamException {
      if (id == null) {
        throw new XMLStreamException("an instance without instanceId");
      }
      // The instance's own ipv6Address, else its primary network interface's, else the first one.
      String ipv6 = topIpv6 != null ? topIpv6 : primaryEniIpv6 != null ? primaryEniIpv6 : firstEniIpv6;
      if (ipv6 != null) {
        addresses.put(AddressType.IPV6, ipv6);
      }
      return new Instance(id, state, type, launchTime, Collections.unmodifiableMap(tags), Map.copyOf(addresses));
    }
  }
}
