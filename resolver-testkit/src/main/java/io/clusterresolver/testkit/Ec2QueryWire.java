package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;

/** The EC2 Query protocol's wire pieces: form parameters, page tokens, XML escapes and error bodies. */
final class Ec2QueryWire {

  private Ec2QueryWire() {}

  static ResponseDefinition error(int status, String code, String message, String requestId, long delayMs) {
    String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>" + esc(code)
        + "</Code><Message>" + esc(message) + "</Message></Error></Errors><RequestID>" + requestId
        + "</RequestID></Response>";
    ResponseDefinitionBuilder b = aResponse().withStatus(status).withHeader("Content-Type", "text/xml;charset=UTF-8")
        .withHeader("x-amzn-RequestId", requestId).withBody(xml);
    return SimulatedApi.build(b, delayMs);
  }

  static ResponseDefinition plain(int status, String body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "text/plain").withBody(body).build();
  }

  static String encodeToken(int page, int offset) {
    return PageTokens.encode("sim", page, offset);
  }

  static int[] decodeToken(String token) {
    int[] position = PageTokens.decode("sim", token);
    if (position == null) {
      throw new BadRequest("InvalidParameterValue", "The token '" + token + "' is invalid");
    }
    return position;
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String code;

    BadRequest(String code, String message) {
      super(message);
      this.code = code;
    }
  }
}
