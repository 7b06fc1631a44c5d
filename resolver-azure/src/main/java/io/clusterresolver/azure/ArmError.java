package io.clusterresolver.azure;

import com.azure.json.JsonReader;
import com.azure.json.JsonToken;
import java.io.IOException;
import java.util.List;

/**
 * ARM's error object, {@code {"error":{"code","message","target","details":[...],"additionalInfo":[...]}}} or the
 * same object not wrapped in {@code "error"}, read with azure-json's {@link JsonReader} as azure-core-management's
 * {@code ManagementError.fromJson} reads it (what the generated clients' {@code ManagementException} carried):
 * the first {@code "error"} member (its name case-sensitive) if there is one, else the whole object; inside, the
 * names matched case-insensitively; each detail read the same way, each additional info's {@code type} and
 * {@code info} read and dropped. What it refuses (an {@code "error"} that is not an object, a detail that is not one,
 * a field of the wrong shape) throws as that reading does. {@code ArmErrorTest} compares both readings.
 *
 * @param details the details ({@code null}: not sent), each may be {@code null}
 */
record ArmError(String code, String message, String target, List<ArmError> details) {

  /** The error at the reader's next value, or {@code null} for a JSON {@code null}. */
  static ArmError read(JsonReader json) throws IOException {
    return json.readObject(outer -> {
      JsonReader object = outer.bufferObject();
      object.nextToken(); // the object's start
      for (JsonToken t = object.nextToken(); t != JsonToken.END_OBJECT; t = object.nextToken()) {
        String name = object.getFieldName();
        object.nextToken();
        if ("error".equals(name)) {
          return members(object);
        }
        object.skipChildren();
      }
      return members(object.reset()); // no "error": the object is the error itself
    });
  }

  private static ArmError members(JsonReader json) throws IOException {
    return json.readObject(object -> {
      String code = null;
      String message = null;
      String target = null;
      List<ArmError> details = null;
      for (JsonToken t = object.nextToken(); t != JsonToken.END_OBJECT; t = object.nextToken()) {
        String name = object.getFieldName();
        object.nextToken();
        if ("code".equalsIgnoreCase(name)) {
          code = object.getString();
        } else if ("message".equalsIgnoreCase(name)) {
          message = object.getString();
        } else if ("target".equalsIgnoreCase(name)) {
          target = object.getString();
        } else if ("details".equalsIgnoreCase(name)) {
          details = object.readArray(ArmError::read);
        } else if ("additionalInfo".equalsIgnoreCase(name)) {
          object.readArray(ArmError::additionalInfo); // read for its shape only: a resolve does not use it
        } else {
          object.skipChildren();
        }
      }
      return new ArmError(code, message, target, details);
    });
  }

  /** One {@code additionalInfo} item, read as the SDK reads it ({@code type} a string, {@code info} any value). */
  private static Object additionalInfo(JsonReader json) throws IOException {
    return json.readObject(object -> {
      for (JsonToken t = object.nextToken(); t != JsonToken.END_OBJECT; t = object.nextToken()) {
        String name = object.getFieldName();
        object.nextToken();
        if ("type".equals(name)) {
          object.getString();
        } else if ("info".equals(name)) {
          object.readUntyped();
        } else {
          object.skipChildren();
        }
      }
      return Boolean.TRUE;
    });
  }
}
