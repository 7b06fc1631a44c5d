package io.clusterresolver.kubernetes;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.clusterresolver.cloud.NotTheApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the API server's answers to a list of pods, keeping only the fields a
 * resolve uses ({@link ListedPod}) and skipping everything else (managed fields, volumes, env, any
 * field a later API version adds) without building it: one pass of jackson-core's parser, where
 * binding each pod into fabric8's full {@code Pod} model cost most of a cold resolve's listing.
 * Stateless and thread-safe.
 *
 * <p>On jackson-core 2, the Jackson the command writes its answer with, so that a resolve loads one JSON library
 * (fabric8's own Jackson 3 reads only a kubeconfig).
 */
final class PodListJson {

  /** jackson-core's parser factory; thread-safe, made once. */
  private static final JsonFactory JSON = new JsonFactory();

  private PodListJson() {}

  /**
   * One page of a list of pods.
   *
   * @param resourceVersion {@code metadata.resourceVersion}: the snapshot every page of one listing is read from
   * @param continueToken {@code metadata.continue}: the next page's token, or {@code null} (or empty) after the last
   * @param pods {@code items}
   */
  record Page(String resourceVersion, String continueToken, List<ListedPod> pods) {}

  /**
   * The fields of a {@code Status} (what the API server answers an error with) a message quotes.
   *
   * @param reason {@code reason}, such as {@code Forbidden}, or {@code null}
   * @param message {@code message}, or {@code null}
   */
  record Status(String reason, String message) {
    static final Status NONE = new Status(null, null);
  }

  /**
   * Reads a {@code PodList}.
   *
   * @param body the whole answer: the parser reads an array without copying it in chunks
   * @throws NotTheApiException when the answer is not JSON, or not a list of pods: every list the API
   *     server sends has {@code metadata.resourceVersion} (an empty one too), and every pod a name
   */
  static Page page(byte[] body) {
    return page(body, token -> {});
  }

  /**
   * Reads a {@code PodList}, giving its {@code metadata.continue} (when it has a non-empty one) to {@code onContinue}
   * as soon as it is read: before the items, as the API server writes a list (its {@code ListMeta} before its
   * {@code items}), so that the next page can be asked for while this one is read. The token is given whether or not
   * the rest of the page turns out to be readable.
   *
   * @param body the whole answer: the parser reads an array without copying it in chunks
   * @param onContinue takes the continue token (once: a list has one {@code metadata})
   * @throws NotTheApiException as {@link #page(byte[])}
   */
  static Page page(byte[] body, Consumer<String> onContinue) {
    try (JsonParser p = JSON.createParser(body)) {
      require(p.nextToken() == JsonToken.START_OBJECT, "an answer that is not a JSON object");
      String resourceVersion = null;
      String continueToken = null;
      List<ListedPod> pods = new ArrayList<>();
      for (String field = nextField(p); field != null; field = nextField(p)) {
        if (field.equals("metadata") && object(p, field)) {
          for (String meta = nextField(p); meta != null; meta = nextField(p)) {
            switch (meta) {
              case "resourceVersion" -> resourceVersion = scalar(p, meta);
              case "continue" -> {
                continueToken = scalar(p, meta);
                if (continueToken != null && !continueToken.isEmpty()) {
                  onContinue.accept(continueToken);
                }
              }
              default -> p.skipChildren();
            }
          }
        } else if (field.equals("items") && array(p, field)) {
          while (p.nextToken() != JsonToken.END_ARRAY) {
            require(p.currentToken() == JsonToken.START_OBJECT, "\"items\" holding something other than objects");
            pods.add(pod(p));
          }
        } else {
          p.skipChildren();
        }
      }
      require(resourceVersion != null && !resourceVersion.isEmpty(), "a list without \"metadata.resourceVersion\"");
      return new Page(resourceVersion, continueToken, pods);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new NotTheApiException("malformed JSON" + (at == null ? "" : " at line " + at.getLineNr() + ", column "
          + at.getColumnNr()) + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not from an array in memory
    }
  }

  /**
   * Reads the {@code Status} of a failed call; {@link Status#NONE} when the body is not one (such as
   * a proxy's HTML page): the HTTP status is reported either way.
   */
  static Status status(byte[] body) {
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Status.NONE;
      }
      String reason = null;
      String message = null;
      for (String field = nextField(p); field != null; field = nextField(p)) {
        switch (field) {
          case "reason" -> reason = scalar(p, field);
          case "message" -> message = scalar(p, field);
          default -> p.skipChildren();
        }
      }
      return new Status(reason, message);
    } catch (IOException | NotTheApiException e) {
      return Status.NONE;
    }
  }

  private static ListedPod pod(JsonParser p) throws IOException {
    PodFields pod = new PodFields();
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "metadata" -> {
          if (object(p, field)) {
            metadata(p, pod);
          }
        }
        case "spec" -> {
          if (object(p, field)) {
            spec(p, pod);
          }
        }
        case "status" -> {
          if (object(p, field)) {
            status(p, pod);
          }
        }
        default -> p.skipChildren();
      }
    }
    require(pod.name != null && !pod.name.isEmpty(), "a pod without \"metadata.name\"");
    if (pod.podIp != null) {
      pod.podIps.add(pod.podIp); // after podIPs: the dual-stack list comes first
    }
    return new ListedPod(pod.name, pod.creationTimestamp, pod.terminating, pod.labels, pod.controllerKind,
        pod.controllerName, pod.phase, Boolean.TRUE.equals(pod.ready), pod.podIps, pod.containers);
  }

  private static void metadata(JsonParser p, PodFields pod) throws IOException {
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "name" -> pod.name = scalar(p, field);
        case "creationTimestamp" -> pod.creationTimestamp = scalar(p, field);
        case "deletionTimestamp" -> pod.terminating = scalar(p, field) != null;
        case "labels" -> stringMap(p, field, pod.labels);
        case "ownerReferences" -> {
          if (array(p, field)) {
            while (nextObject(p, field)) {
              ownerReference(p, pod);
            }
          }
        }
        default -> p.skipChildren();
      }
    }
  }

  private static void ownerReference(JsonParser p, PodFields pod) throws IOException {
    String kind = null;
    String name = null;
    boolean controller = false;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "kind" -> kind = scalar(p, field);
        case "name" -> name = scalar(p, field);
        case "controller" -> controller = p.currentToken() == JsonToken.VALUE_TRUE;
        default -> p.skipChildren();
      }
    }
    if (controller && !pod.hasController) { // at most one is the controller; the first one counts
      pod.hasController = true;
      pod.controllerKind = kind;
      pod.controllerName = name;
    }
  }

  private static void spec(JsonParser p, PodFields pod) throws IOException {
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if (field.equals("containers") && array(p, field)) {
        while (nextObject(p, field)) {
          pod.containers.add(container(p));
        }
      } else {
        p.skipChildren();
      }
    }
  }

  private static ListedPod.Container container(JsonParser p) throws IOException {
    List<ListedPod.Port> ports = new ArrayList<>();
    Map<String, String> limits = new HashMap<>();
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if (field.equals("ports") && array(p, field)) {
        while (nextObject(p, field)) {
          ports.add(port(p));
        }
      } else if (field.equals("resources") && object(p, field)) {
        for (String resources = nextField(p); resources != null; resources = nextField(p)) {
          if (resources.equals("limits")) {
            stringMap(p, resources, limits);
          } else {
            p.skipChildren();
          }
        }
      } else {
        p.skipChildren();
      }
    }
    return new ListedPod.Container(ports, limits);
  }

  private static ListedPod.Port port(JsonParser p) throws IOException {
    String name = null;
    Integer number = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "name" -> name = scalar(p, field);
        case "containerPort" -> {
          require(p.currentToken() == JsonToken.VALUE_NUMBER_INT || p.currentToken() == JsonToken.VALUE_NULL,
              "a \"containerPort\" that is not an integer");
          number = p.currentToken() == JsonToken.VALUE_NULL ? null : p.getIntValue();
        }
        default -> p.skipChildren();
      }
    }
    return new ListedPod.Port(name, number);
  }

  private static void status(JsonParser p, PodFields pod) throws IOException {
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "phase" -> pod.phase = scalar(p, field);
        case "podIP" -> pod.podIp = scalar(p, field);
        case "podIPs" -> {
          if (array(p, field)) {
            while (nextObject(p, field)) {
              String ip = podIp(p);
              if (ip != null) {
                pod.podIps.add(ip);
              }
            }
          }
        }
        case "conditions" -> {
          if (array(p, field)) {
            while (nextObject(p, field)) {
              condition(p, pod);
            }
          }
        }
        default -> p.skipChildren();
      }
    }
  }

  private static String podIp(JsonParser p) throws IOException {
    String ip = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      if (field.equals("ip")) {
        ip = scalar(p, field);
      } else {
        p.skipChildren();
      }
    }
    return ip;
  }

  private static void condition(JsonParser p, PodFields pod) throws IOException {
    String type = null;
    String status = null;
    for (String field = nextField(p); field != null; field = nextField(p)) {
      switch (field) {
        case "type" -> type = scalar(p, field);
        case "status" -> status = scalar(p, field);
        default -> p.skipChildren();
      }
    }
    if (pod.ready == null && "Ready".equals(type)) { // the first Ready condition decides
      pod.ready = "True".equals(status);
    }
  }

  /** A JSON object of strings into {@code into}; {@code null} values are left out. */
  private static void stringMap(JsonParser p, String field, Map<String, String> into) throws IOException {
    if (object(p, field)) {
      for (String key = nextField(p); key != null; key = nextField(p)) {
        String value = scalar(p, key);
        if (value != null) {
          into.put(key, value);
        }
      }
    }
  }

  /**
   * The next field of the object being read, with the parser on its value; {@code null} at the object's end.
   * ({@code nextFieldName()} is the parser's fast path for a field's name.)
   */
  private static String nextField(JsonParser p) throws IOException {
    String name = p.nextFieldName();
    if (name != null) {
      p.nextToken();
    }
    return name;
  }

  // The checks below name the field only when they fail: a page calls them tens of thousands of times.

  /** Whether the current value is an object (then read it); {@code false} for {@code null}. */
  private static boolean object(JsonParser p, String field) {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      return true;
    }
    require(t == JsonToken.VALUE_NULL, field, "\" that is not an object");
    return false;
  }

  /** Whether the current value is an array (then read it); {@code false} for {@code null}. */
  private static boolean array(JsonParser p, String field) {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_ARRAY) {
      return true;
    }
    require(t == JsonToken.VALUE_NULL, field, "\" that is not an array");
    return false;
  }

  /** Moves to the next element of an array of objects: {@code false} at its end. */
  private static boolean nextObject(JsonParser p, String field) throws IOException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.END_ARRAY) {
      return false;
    }
    require(t == JsonToken.START_OBJECT, field, "\" holding something other than objects");
    return true;
  }

  /** A string, number or boolean as text; {@code null} for {@code null}. */
  private static String scalar(JsonParser p, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    require(t.isScalarValue(), field, "\" that is not a string");
    return p.getText();
  }

  private static void require(boolean expected, String missing) {
    NotTheApiException.require(null, expected, missing);
  }

  /** {@link #require(boolean, String)} for a check of {@code "field"}, its message made only when it fails. */
  private static void require(boolean expected, String field, String isNot) {
    if (!expected) {
      require(false, "\"" + field + isNot);
    }
  }

  /** One pod's fields while it is read. */
  private static final class PodFields {
    String name;
    String creationTimestamp;
    boolean terminating;
    final Map<String, String> labels = new HashMap<>();
    boolean hasController;
    String controllerKind;
    String controllerName;
    String phase;
    Boolean ready;
    String podIp;
    final List<String> podIps = new ArrayList<>();
    final List<ListedPod.Container> containers = new ArrayList<>();
  }
}
