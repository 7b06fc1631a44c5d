package io.clusterresolver.aws;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.Rfc3339;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

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
    XMLStreamReader xml = AnswerXml.open(body);
    try {
      List<Instance> instances = new ArrayList<>();
      // Tags, types and states repeat across a fleet: one copy of each text per page.
      Map<String, String> texts = new HashMap<>();
      Deque<String> path = new ArrayDeque<>();
      String nextToken = null;
      Builder current = null;
      String tagKey = null;
      String tagValue = null;
      String ipv6 = null;
      boolean ipv6Primary = false;
      boolean ended = false;
      String root = null;
      while (xml.hasNext()) {
        int event = xml.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          String name = xml.getLocalName();
          path.push(name);
          int depth = path.size();
          if (depth == 1) {
            root = name;
          }
          if (depth == 5 && name.equals("item") && "instancesSet".equals(AnswerXml.ancestor(path, 1))) {
            current = new Builder();
          } else if (current != null && depth == 6) {
            String text;
            switch (name) {
              case "instanceId":
                current.id = xml.getElementText();
                path.pop();
                break;
              case "instanceType":
                current.type = once(texts, xml.getElementText());
                path.pop();
                break;
              case "launchTime":
                text = xml.getElementText();
                path.pop();
                current.launchTime = instant(text);
                break;
              case "privateIpAddress":
                current.address(AddressType.PRIVATE_IPV4, xml.getElementText());
                path.pop();
                break;
              case "ipAddress":
                current.address(AddressType.PUBLIC_IPV4, xml.getElementText());
                path.pop();
                break;
              case "privateDnsName":
                current.address(AddressType.PRIVATE_DNS, xml.getElementText());
                path.pop();
                break;
              case "dnsName":
                current.address(AddressType.PUBLIC_DNS, xml.getElementText());
                path.pop();
                break;
              case "ipv6Address":
                current.topIpv6 = emptyToNull(xml.getElementText());
                path.pop();
                break;
              default:
                break;
            }
          } else if (current != null && depth == 7 && name.equals("name")
              && "instanceState".equals(AnswerXml.ancestor(path, 1))) {
            current.state = once(texts, xml.getElementText());
            path.pop();
          } else if (current != null && depth == 8 && "tagSet".equals(AnswerXml.ancestor(path, 2))) {
            if (name.equals("key")) {
              tagKey = once(texts, xml.getElementText());
              path.pop();
            } else if (name.equals("value")) {
              tagValue = once(texts, xml.getElementText());
              path.pop();
            }
          } else if (current != null && depth == 10 && "ipv6AddressesSet".equals(AnswerXml.ancestor(path, 2))
              && "networkInterfaceSet".equals(AnswerXml.ancestor(path, 4))) {
            if (name.equals("ipv6Address")) {
              ipv6 = emptyToNull(xml.getElementText());
              path.pop();
            } else if (name.equals("isPrimaryIpv6")) {
              ipv6Primary = "true".equalsIgnoreCase(xml.getElementText().trim());
              path.pop();
            }
          } else if (depth == 2 && name.equals("nextToken")) {
            nextToken = emptyToNull(xml.getElementText());
            path.pop();
          }
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          String name = path.pop();
          int depth = path.size() + 1;
          if (current != null && depth == 7 && name.equals("item") && "tagSet".equals(path.peek())) {
            // A tag is kept once its item closes: key and value may come in either order.
            if (tagKey != null) {
              current.tags.put(tagKey, tagValue == null ? "" : tagValue);
            }
            tagKey = null;
            tagValue = null;
          } else if (current != null && depth == 9 && name.equals("item") && "ipv6AddressesSet".equals(path.peek())) {
            current.eniIpv6(ipv6, ipv6Primary);
            ipv6 = null;
            ipv6Primary = false;
          } else if (current != null && depth == 5 && name.equals("item") && "instancesSet".equals(path.peek())) {
            instances.add(current.build());
            current = null;
          } else if (depth == 1) {
            ended = true;
          }
        }
      }
      if (!ended) {
        throw new XMLStreamException("the answer ended before its last element closed");
      }
      return new InstancePage(List.copyOf(instances), nextToken, ROOT.equals(root));
    } finally {
      xml.close();
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
