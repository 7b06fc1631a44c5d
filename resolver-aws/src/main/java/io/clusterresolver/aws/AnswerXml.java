package io.clusterresolver.aws;

import java.io.InputStream;
import java.util.Arrays;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The EC2 answers the provider reads itself ({@link InstancePage}, {@link InstanceTypeAccelerators},
 * {@link Ec2Error}), walked element by element: the JDK's StAX parser, made once and hardened, since an API
 * answer has no DTD, with the names of the open elements kept, so that a reader asks where it is
 * ({@link #depth()}, {@link #ancestor(int)}) instead of keeping that path itself.
 */
final class AnswerXml implements AutoCloseable {

  private static final XMLInputFactory FACTORY = factory();

  private final XMLStreamReader xml;
  /** The names of the open elements, the root first; the current one last. */
  private String[] open = new String[16];
  private int depth;
  private boolean atEnd;
  private boolean complete;

  private AnswerXml(XMLStreamReader xml) {
    this.xml = xml;
  }

  private static XMLInputFactory factory() {
    // The JDK's own parser, which the settings below are written for: newFactory() would first look for another
    // one (system property, jaxp.properties, a service entry in every jar of the class path) on a cold start's path.
    XMLInputFactory f = XMLInputFactory.newDefaultFactory();
    // An API answer has no DTD: refuse entities and external resources outright.
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    return f;
  }

  /** A reader of {@code body} before its first element; closing it leaves {@code body} open. */
  static AnswerXml open(InputStream body) throws XMLStreamException {
    return new AnswerXml(FACTORY.createXMLStreamReader(body));
  }

  /**
   * Moves to the next start or end tag ({@link #atStart()} tells which); {@code false} when the document has no
   * more. At either, {@link #name()} is that element's name and {@link #depth()} its depth.
   */
  boolean next() throws XMLStreamException {
    if (atEnd) {
      depth--;
      atEnd = false;
    }
    while (xml.hasNext()) {
      int event = xml.next();
      if (event == XMLStreamConstants.START_ELEMENT) {
        if (depth == open.length) {
          open = Arrays.copyOf(open, depth * 2);
        }
        open[depth++] = xml.getLocalName();
        return true;
      }
      if (event == XMLStreamConstants.END_ELEMENT) {
        atEnd = true;
        complete = depth == 1;
        return true;
      }
    }
    return false;
  }

  /** Whether the reader is at a start tag (else at an end tag). */
  boolean atStart() {
    return !atEnd;
  }

  /** The current element's name. */
  String name() {
    return open[depth - 1];
  }

  /** The current element's depth: 1 for the root. */
  int depth() {
    return depth;
  }

  /** The name of the element {@code up} levels above the current one (1: its parent); {@code ""} above the root. */
  String ancestor(int up) {
    return up < depth ? open[depth - 1 - up] : "";
  }

  /**
   * The text of the element whose start tag the reader is at, read through its end tag, which {@link #next()} then
   * does not report.
   */
  String text() throws XMLStreamException {
    String text = xml.getElementText();
    depth--;
    return text;
  }

  /** @throws XMLStreamException unless the root element has closed */
  void requireComplete() throws XMLStreamException {
    if (!complete) {
      throw new XMLStreamException("the answer ended before its last element closed");
    }
  }

  @Override
  public void close() throws XMLStreamException {
    xml.close();
  }
}
