package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers the {@code Audit-Id} the API server gave each failed request (the id its audit log and
 * support know the request by), so that an error message can quote it: the fabric8 exception does
 * not carry response headers. Keyed by the request's path and {@code continue} token; holds the last
 * 64 failures. Thread-safe.
 */
final class AuditIds implements Interceptor {

  private static final int KEPT = 64;

  private final Map<String, String> failed = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > KEPT;
    }
  };

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    String id = response.code() >= 400 ? response.header("Audit-Id") : null;
    if (id != null) {
      synchronized (failed) {
        failed.put(key(request.uri().getRawPath(), continueToken(request.uri())), id);
      }
    }
  }

  /** The audit id of the last failed list of pods in {@code namespace} with this continue token, or {@code null}. */
  String find(String namespace, String continueToken) {
    synchronized (failed) {
      return failed.get(key("/api/v1/namespaces/" + namespace + "/pods", continueToken));
    }
  }

  private static String key(String path, String continueToken) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    int api = p.indexOf("/api/v1/");
    return (api > 0 ? p.substring(api) : p) + "?" + (continueToken == null ? "" : continueToken);
  }

  private static String continueToken(URI uri) {
    String query = uri.getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith("continue=")) {
          return URLDecoder.decode(pair.substring("continue=".length()), StandardCharsets.UTF_8);
        }
      }
    }
    return null;
  }
}
