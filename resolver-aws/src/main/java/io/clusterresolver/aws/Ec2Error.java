package io.clusterresolver.aws;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

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
    XMLStreamReader xml = AnswerXml.open(body);
    try {
      String code = null;
      String message = null;
      String requestId = null;
      boolean inFirstError = false;
      boolean errorSeen = false;
      Deque<String> path = new ArrayDeque<>();
      while (xml.hasNext()) {
        int event = xml.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          String name = xml.getLocalName();
          path.push(name);
          int depth = path.size();
          if (depth == 1 && !name.equals("Response")) {
            throw new XMLStreamException("not an EC2 error answer but <" + name + ">");
          }
          if (depth == 3 && name.equals("Error") && "Errors".equals(AnswerXml.ancestor(path, 1))) {
            inFirstError = !errorSeen;
            errorSeen = true;
          } else if (depth == 4 && inFirstError && (name.equals("Code") || name.equals("Message"))) {
            String text = xml.getElementText();
            path.pop();
            if (name.equals("Code")) {
              code = text;
            } else {
              message = text;
            }
          } else if (depth == 2 && (name.equals("RequestID") || name.equals("RequestId"))) {
            requestId = xml.getElementText();
            path.pop();
          }
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          if (path.size() == 3) {
            inFirstError = false;
          }
          path.pop();
        }
      }
      return new Ec2Error(code, message, requestId);
    } finally {
      xml.close();
    }
  }
}
