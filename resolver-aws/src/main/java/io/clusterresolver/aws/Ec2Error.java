package io.clusterresolver.aws;

import java.io.InputStream;
import javax.xml.stream.XMLStreamException;

/**
 * EC2's error answer, read with StAX ({@link AnswerXml}):
 * {@code <Response><Errors><Error><Code>…</Code><Message>…</Message></Error></Errors><RequestID>…</RequestID></Response>}
 * (the first error's code and message, as the SDK's Query protocol reads them).
 *
 * @param code the error code, like {@code RequestLimitExceeded}, or {@code null}
 * @param message the error message, or {@code null}
 * @param requestId the request id, or {@code null}
 */
record Ec2Error(String code, String message, String requestId) {

  /**
   * Reads an error answer.
   *
   * @throws XMLStreamException when the body is not well-formed XML whose root is {@code <Response>}
   */
  static Ec2Error read(InputStream body) throws XMLStreamException {
    try (AnswerXml xml = AnswerXml.open(body)) {
      String code = null;
      String message = null;
      String requestId = null;
      boolean inFirstError = false;
      boolean errorSeen = false;
      while (xml.next()) {
        int depth = xml.depth();
        String name = xml.name();
        if (!xml.atStart()) {
          if (depth == 3) {
            inFirstError = false; // an error closed
          }
        } else if (depth == 1 && !name.equals("Response")) {
          throw new XMLStreamException("not an EC2 error answer but <" + name + ">");
        } else if (depth == 3 && name.equals("Error") && "Errors".equals(xml.ancestor(1))) {
          inFirstError = !errorSeen;
          errorSeen = true;
        } else if (depth == 4 && inFirstError && name.equals("Code")) {
          code = xml.text();
        } else if (depth == 4 && inFirstError && name.equals("Message")) {
          message = xml.text();
        } else if (depth == 2 && (name.equals("RequestID") || name.equals("RequestId"))) {
          requestId = xml.text();
        }
      }
      return new Ec2Error(code, message, requestId);
    }
  }
}
