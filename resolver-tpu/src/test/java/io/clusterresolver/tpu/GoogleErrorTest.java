package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Google's JSON error shape, and what is left of an answer that is not in it. */
class GoogleErrorTest {

  @Test
  void readsMessageStatusAndRequestId() {
    GoogleError e = GoogleError.of("{\"error\": {\"code\": 403, \"message\": \"Permission 'tpu.nodes.get' denied\","
        + " \"status\": \"PERMISSION_DENIED\", \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\","
        + " \"reason\": \"IAM_PERMISSION_DENIED\"}, {\"@type\": \"type.googleapis.com/google.rpc.RequestInfo\","
        + " \"requestId\": \"abc123\"}]}}");
    assertThat(e).isEqualTo(new GoogleError("Permission 'tpu.nodes.get' denied", "PERMISSION_DENIED", "abc123"));
  }

  @Test
  void aProxysPageKeepsItsFirstLineOnly() {
    GoogleError e = GoogleError.of("<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>");
    assertThat(e.message()).isEqualTo("<html><head><title>502 Bad Gateway</title></head>");
    assertThat(e.status()).isNull();
    assertThat(e.requestId()).isNull();
    assertThat(GoogleError.of(null)).isEqualTo(new GoogleError(null, null, null));
    assertThat(GoogleError.of("{\"error\": {\"code\": 500}}")).isEqualTo(new GoogleError(null, null, null));
  }
}
