package com.example.cluster;

import io.clusterresolver.ClusterResolverException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The inventory service's one call: {@code GET <url>/v1/pools/<pool>/members}, answered with one
 * member per line, {@code <name> <host> <created, epoch ms>}, in no particular order.
 */
final class InventoryClient {

  /** A machine of a pool. */
  record Member(String name, String host, long created) {}

  private final String provider;
  private final URI base;
  private final Optional<String> token;
  private final Duration timeout;
  private final HttpClient http;

  InventoryClient(String url, Optional<String> token, Duration timeout) {
    this("inventory", url, token, timeout);
  }

  /** A client whose messages start with {@code provider}, the name of the provider that uses it. */
  InventoryClient(String provider, String url, Optional<String> token, Duration timeout) {
    this.provider = provider;
    this.base = URI.create(url.endsWith("/") ? url : url + "/");
    this.token = token;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /**
   * Every member of the pool, oldest first (ties by name), so that every process computes the same
   * task indices; never a partial list.
   *
   * @throws ClusterResolverException naming the operation and the HTTP status or I/O failure
   */
  List<Member> members(String pool) {
    URI uri = base.resolve("v1/pools/" + URLEncoder.encode(pool, StandardCharsets.UTF_8) + "/members");
    String operation = provider + ": GET " + uri.getPath();
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ClusterResolverException(operation + " failed: " + e.getClass().getSimpleName(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClusterResolverException(operation + " was interrupted", e);
    }
    if (response.statusCode() != 200) {
      throw new ClusterResolverException(operation + " answered HTTP " + response.statusCode());
    }
    List<Member> members = new ArrayList<>();
    String[] lines = response.body().split("\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] fields = line.split("\\s+");
      try {
        if (fields.length != 3) {
          throw new NumberFormatException();
        }
        members.add(new Member(fields[0], fields[1], Long.parseLong(fields[2])));
      } catch (NumberFormatException e) {
        throw new ClusterResolverException(operation + ": line " + (i + 1) + " is not '<name> <host> <created>'");
      }
    }
    members.sort(Comparator.comparingLong(Member::created).thenComparing(Member::name));
    return members;
  }

  @Override
  public String toString() {
    return "InventoryClient{" + base + (token.isPresent() ? ", token set" : "") + "}";
  }
}
