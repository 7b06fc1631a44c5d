package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;

/**
 * The scanner against the JDK's own StAX parser (configured as the page reader used it: no DTD support, no
 * external entities, coalescing), the independent reading: on random well-formed documents both give the same
 * elements and texts; on the same documents with bytes deleted, inserted or replaced, whatever the scanner
 * accepts the JDK reads the same way, and whatever the JDK refuses the scanner refuses too.
 */
class XmlScannerTest {

  private static final XMLInputFactory JDK = XMLInputFactory.newFactory();

  static {
    JDK.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    JDK.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    JDK.setProperty(XMLInputFactory.IS_COALESCING, true);
  }

  /** Elements with children, and elements with text only (the only ones read as text). */
  private static final String[] CONTAINERS = {"item", "tagSet", "x", "p:item"};
  private static final List<String> LEAVES = List.of("instanceId", "key", "value", "nextToken", "p:key");
  private static final String[] TEXT = {"a", "Z", "9", " ", "\n", "\r\n", "\r", "\t", "&amp;", "&lt;", "&gt;",
      "&quot;", "&apos;", "&#233;", "&#x1F600;", "é", "名", "😀", "<![CDATA[<x>&amp;\r\n]]>", "<!-- c -->",
      "<?pi data?>", "]", ">", "'", "\""};

  @Test
  void readsWhatTheJdkReadsOnRandomDocuments() {
    int read = 0;
    for (int seed = 0; seed < 2000; seed++) {
      Random random = new Random(seed);
      String doc = document(random);
      byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
      List<String> jdk = jdk(bytes, seed);
      if (!jdk.contains("ERROR")) {
        read++;
      }
      assertThat(scanner(bytes, seed)).as("seed %d:%n%s", seed, doc).isEqualTo(jdk);
    }
    assertThat(read).as("documents the JDK reads whole").isGreaterThan(1500);
  }

  @Test
  void refusesWhatTheJdkRefusesAndReadsTheRestAlike() {
    byte[] significant = "<>/&;!?[]-=\"' \r\nax#:é".getBytes(StandardCharsets.UTF_8);
    int refused = 0;
    for (int seed = 0; seed < 6000; seed++) {
      Random random = new Random(seed);
      byte[] bytes = document(random).getBytes(StandardCharsets.UTF_8);
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && bytes.length > 0; e++) {
        bytes = mutate(bytes, random, significant);
      }
      List<String> jdk = jdk(bytes, seed);
      List<String> ours = scanner(bytes, seed);
      boolean jdkRefused = jdk.contains("ERROR");
      String doc = new String(bytes, StandardCharsets.UTF_8);
      if (jdkRefused) {
        refused++;
        assertThat(ours).as("seed %d: the JDK refuses (%s)%n%s", seed, jdk, doc).contains("ERROR");
        // Both read the same events up to the first refusal.
        int common = Math.min(ours.size(), jdk.size()) - 1;
        assertThat(ours.subList(0, common)).as("seed %d%n%s", seed, doc).isEqualTo(jdk.subList(0, common));
      } else {
        assertThat(ours).as("seed %d%n%s", seed, doc).isEqualTo(jdk);
      }
    }
    assertThat(refused).as("most mutations break the document").isGreaterThan(1000);
  }

  @Test
  void aDocumentTypeIsNeverReadAndOtherEncodingsAreRefused() {
    String entity = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e \"expanded\">]><x>&e;</x>";
    assertThat(scanner(entity.getBytes(StandardCharsets.UTF_8), 1)).last().isEqualTo("ERROR");
    String skipped = "<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x.dtd\"><html/>";
    assertThat(scanner(skipped.getBytes(StandardCharsets.UTF_8), 1)).containsExactly("<html", "</html");
    String latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><x>\u00e9</x>";
    assertThat(scanner(latin1.getBytes(StandardCharsets.ISO_8859_1), 0)).containsExactly("ERROR");
  }

  @Test
  void nestingIsBounded() throws XMLStreamException {
    int deep = XmlScanner.MAX_DEPTH;
    assertThat(events("<a>".repeat(deep) + "</a>".repeat(deep))).isEqualTo(2 * deep);
    String deeper = "<a>".repeat(deep + 1) + "</a>".repeat(deep + 1);
    XMLStreamReader jdk = JDK.createXMLStreamReader(new ByteArrayInputStream(deeper.getBytes(StandardCharsets.UTF_8)));
    int jdkEvents = 0;
    while (jdk.hasNext()) {
      int event = jdk.next();
      jdkEvents += event == XMLStreamConstants.START_ELEMENT || event == XMLStreamConstants.END_ELEMENT ? 1 : 0;
    }
    assertThat(jdkEvents).as("XML itself sets no bound").isEqualTo(2 * (deep + 1));
    assertThatThrownBy(() -> events(deeper)).isInstanceOf(XMLStreamException.class)
        .hasMessageContaining("nested deeper than " + deep);
  }

  private static int events(String doc) throws XMLStreamException {
    XmlScanner xml = XmlScanner.of(doc.getBytes(StandardCharsets.UTF_8));
    int n = 0;
    while (xml.next() != XMLStreamConstants.END_DOCUMENT) {
      n++;
    }
    return n;
  }

  // ---- the two readings, as the same list of events ----

  /** Whether an element is read as text (the same choice for both readers): leaves, and some others. */
  private static boolean asText(int seed, int n, String name) {
    return LEAVES.contains(name) || (seed * 31 + n) % 7 == 0;
  }

  private static List<String> jdk(byte[] bytes, int seed) {
    List<String> events = new ArrayList<>();
    try {
      XMLStreamReader xml = JDK.createXMLStreamReader(new ByteArrayInputStream(bytes));
      int n = 0;
      while (xml.hasNext()) {
        int event = xml.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          events.add("<" + xml.getLocalName());
          if (asText(seed, n++, xml.getPrefix() == null || xml.getPrefix().isEmpty() ? xml.getLocalName()
              : xml.getPrefix() + ":" + xml.getLocalName())) {
            events.add("text:" + xml.getElementText());
            events.add("</" + xml.getLocalName());
          }
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          events.add("</" + xml.getLocalName());
        }
      }
    } catch (XMLStreamException | RuntimeException e) {
      events.add("ERROR");
    }
    return events;
  }

  private static List<String> scanner(byte[] bytes, int seed) {
    List<String> events = new ArrayList<>();
    try {
      XmlScanner xml = XmlScanner.of(bytes);
      int n = 0;
      for (int event = xml.next(); event != XMLStreamConstants.END_DOCUMENT; event = xml.next()) {
        if (event == XMLStreamConstants.START_ELEMENT) {
          events.add("<" + xml.localName());
          if (asText(seed, n++, xml.qualifiedName())) {
            events.add("text:" + xml.elementText());
            events.add("</" + xml.localName());
          }
        } else {
          events.add("</" + xml.localName());
        }
      }
    } catch (XMLStreamException e) {
      events.add("ERROR");
    }
    return events;
  }

  // ---- random documents ----

  static String document(Random random) {
    StringBuilder xml = new StringBuilder();
    switch (random.nextInt(4)) {
      case 0 -> xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
      case 1 -> xml.append("<?xml version='1.0'?>");
      case 2 -> xml.append("\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\r\n<!-- head -->");
      default -> { }
    }
    element(xml, random, 0);
    if (random.nextBoolean()) {
      xml.append(" \n<!-- tail --><?tail x?>\n");
    }
    return xml.toString();
  }

  private static void element(StringBuilder xml, Random random, int depth) {
    boolean leaf = depth > 4 || random.nextInt(3) == 0;
    String name = leaf ? LEAVES.get(random.nextInt(LEAVES.size())) : CONTAINERS[random.nextInt(CONTAINERS.length)];
    xml.append('<').append(name);
    if (random.nextInt(4) == 0 || (depth == 0 && random.nextBoolean())) {
      xml.append(" xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"");
    }
    if (depth == 0 || random.nextInt(6) == 0) {
      xml.append(" xmlns:p=\"urn:p\"");
    }
    if (random.nextInt(4) == 0) {
      xml.append("\n  a").append(random.nextInt(9)).append(" = '").append(random.nextBoolean() ? "v&amp;\"" : "")
          .append('\'');
    }
    if (random.nextInt(6) == 0) {
      xml.append(random.nextBoolean() ? "/>" : " />");
      return;
    }
    xml.append('>');
    int children = leaf ? 0 : random.nextInt(4);
    for (int i = 0; i < children; i++) {
      if (random.nextBoolean()) {
        text(xml, random);
      }
      element(xml, random, depth + 1);
    }
    text(xml, random);
    xml.append("</").append(name).append(random.nextInt(5) == 0 ? " >" : ">");
  }

  private static void text(StringBuilder xml, Random random) {
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      xml.append(TEXT[random.nextInt(TEXT.length)]);
    }
  }

  private static byte[] mutate(byte[] bytes, Random random, byte[] significant) {
    int at = random.nextInt(bytes.length);
    byte b = significant[random.nextInt(significant.length)];
    byte[] out;
    switch (random.nextInt(3)) {
      case 0 -> {
        out = new byte[bytes.length - 1];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(bytes, at + 1, out, at, bytes.length - at - 1);
      }
      case 1 -> {
        out = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, out, 0, at);
        out[at] = b;
        System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
      }
      default -> {
        out = bytes.clone();
        out[at] = b;
      }
    }
    return out;
  }
}
