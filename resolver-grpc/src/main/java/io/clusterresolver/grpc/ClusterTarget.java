package io.clusterresolver.grpc;

import io.clusterresolver.ConfigurationException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code cluster://PROVIDER/JOB[?key=value&...]} target: the provider that resolves the cluster
 * (empty, {@code cluster:///JOB}, to detect it), the job whose tasks the channel talks to, and
 * properties for the provider ({@code clusterresolver.*} keys, highest precedence).
 *
 * @param provider the provider name, or {@code null} to detect it
 * @param job the job
 * @param properties provider properties from the query
 */
record ClusterTarget(String provider, String job, Map<String, String> properties) {

  /** The target scheme. */
  static final String SCHEME = "cluster";

  /**
   * Reads a target.
   *
   * @return the target, or {@code null} when the URI is not a {@code cluster:} target
   * @throws ConfigurationException for a {@code cluster:} target without a job, naming the target
   */
  static ClusterTarget parse(URI uri) {
    if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
      return null;
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String job = path.startsWith("/") ? path.substring(1) : path;
    if (job.isEmpty() || job.contains("/")) {
      throw new ConfigurationException("gRPC target '" + uri + "' names no job: write cluster://PROVIDER/JOB,"
          + " like cluster://slurm/worker (or cluster:///worker to detect the provider)");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    String query = uri.getRawQuery();
    if (query != null && !query.isEmpty()) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new ConfigurationException("gRPC target '" + uri.getScheme() + "://" + uri.getAuthority() + uri.getPath()
              + "': a query item is not key=value (not shown: it may hold a secret)");
        }
        properties.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    String authority = uri.getAuthority();
    return new ClusterTarget(authority == null || authority.isEmpty() ? null : authority, job, Map.copyOf(properties));
  }
}
