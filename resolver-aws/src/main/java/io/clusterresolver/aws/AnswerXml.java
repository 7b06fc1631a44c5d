package io.clusterresolver.aws;

import io.clusterresolver.cloud.AnswerLimitException;
import java.io.InputStream;
import java.util.Deque;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The XML reader of the EC2 answers the provider reads itself ({@link InstancePage},
 * {@link InstanceTypeAccelerators}): the JDK's StAX parser, made once and hardened, since an API answer has no
 * DTD.
 */
final class AnswerXml {

  private static final XMLInputFactory FACTORY = factory();

  private AnswerXml() {}

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

  /** A reader of {@code body}; the caller closes it (which leaves {@code body} open). */
  static XMLStreamReader open(InputStream body) throws XMLStreamException {
    return FACTORY.createXMLStreamReader(body);
  }

  /**
   * The name of the element {@code up} levels above the current one (1: its parent) in {@code path}, the names of
   * the open elements innermost first; {@code ""} above the root.
   */
  static String ancestor(Deque<String> path, int up) {
    int i = 0;
    for (String element : path) {
      if (i == up) {
        return element;
      }
      i++;
    }
    return "";
  }

  /**
   * The limit the body broke, if that is why it could not be read ({@code null} otherwise): the JDK's StAX parser
   * keeps the stream's exception as its "nested" one, not as the cause.
   */
  static AnswerLimitException limitBroken(Exception e) {
    AnswerLimitException limit = AnswerLimitException.find(e);
    if (limit == null && e instanceof XMLStreamException) {
      Throwable nested = ((XMLStreamException) e).getNestedException();
      limit = nested == null ? null : AnswerLimitException.find(nested);
    }
    return limit;
  }
}
