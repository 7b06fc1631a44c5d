package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * {@link ArmJson}'s readings against azure-json's {@link JsonReader} (what the SDK's generated models read with) on
 * the same value: equal answers, or both refusing it.
 */
class ArmJsonTest {

  private static final List<String> SCALARS = List.of("\"s\"", "\"\"", "12", "-0", "1.50", "-2E3", "1e400", "true",
      "false", "null", "\"caf\\u00e9 \\\"q\\\" \\ud83d\\ude00\"", "{\"a\":1}", "[1,2]", "{}", "[]", "NaN", "-Infinity");

  /** azure-json's reader and ours, each at the first token of {@code json}. */
  private static JsonReader theirs(String json) throws IOException {
    JsonReader reader = JsonProviders.createReader(json);
    reader.nextToken();
    return reader;
  }

  private static JsonParser ours(String json) throws IOException {
    JsonParser parser = ArmJson.parser(json.getBytes(StandardCharsets.UTF_8));
    parser.nextToken();
    return parser;
  }

  @Test
  void aValueReadAsAStringIsItsTextAsGetStringGivesIt() throws IOException {
    for (String json : SCALARS) {
      try (JsonReader theirs = theirs(json); JsonParser ours = ours(json)) {
        assertThat(ArmJson.string(ours)).as(json).isEqualTo(theirs.getString());
      }
    }
  }

  @Test
  void aMapOfStringsAsReadMapReadsIt() throws IOException {
    for (String json : List.of("{\"a\":\"x\",\"b\":1,\"c\":null,\"d\":true,\"e\":2.50,\"a\":\"again\"}", "{}",
        "null")) {
      try (JsonReader theirs = theirs(json); JsonParser ours = ours(json)) {
        assertThat(ArmJson.strings(ours)).as(json).isEqualTo(theirs.readMap(JsonReader::getString));
      }
    }
    for (String json : List.of("[1]", "\"tags\"", "3")) {
      assertThatThrownBy(() -> theirs(json).readMap(JsonReader::getString)).as(json)
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> ArmJson.strings(ours(json))).as(json).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void aNullableBooleanAsGetNullableOfGetBooleanReadsIt() throws IOException {
    for (String json : List.of("true", "false", "null")) {
      try (JsonReader theirs = theirs(json); JsonParser ours = ours(json)) {
        assertThat(ArmJson.nullableBoolean(ours)).as(json).isEqualTo(theirs.getNullable(JsonReader::getBoolean));
      }
    }
    for (String json : List.of("\"true\"", "1", "{}", "[]")) {
      assertThatThrownBy(() -> theirs(json).getNullable(JsonReader::getBoolean)).as(json)
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> ArmJson.nullableBoolean(ours(json))).as(json).isInstanceOf(IOException.class);
    }
  }

  @Test
  void aListAsReadArrayReadsItWithoutItsNulls() throws IOException {
    for (String json : List.of("[\"a\",null,\"b\",3,true]", "[]", "null")) {
      try (JsonReader theirs = theirs(json); JsonParser ours = ours(json)) {
        List<String> expected = theirs.readArray(JsonReader::getString);
        if (expected != null) {
          expected = new ArrayList<>(expected);
          expected.removeIf(Objects::isNull);
        }
        assertThat(ArmJson.list(ours, ArmJson::string)).as(json).isEqualTo(expected);
      }
    }
    assertThatThrownBy(() -> theirs("{}").readArray(JsonReader::getString)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> ArmJson.list(ours("{}"), ArmJson::string)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void fieldsOfAnObjectInOrderWithTheParserAtEachValue() throws IOException {
    String json = "{\"id\":\"/x\",\"properties\":{\"a\":[1,{\"b\":2}],\"c\":\"d\"},\"n\":null}";
    List<String> theirs = new ArrayList<>();
    try (JsonReader reader = theirs(json)) {
      while (reader.nextToken() == com.azure.json.JsonToken.FIELD_NAME) {
        String name = reader.getFieldName();
        reader.nextToken();
        theirs.add(name + "=" + reader.getString());
        reader.skipChildren();
      }
    }
    List<String> ours = new ArrayList<>();
    try (JsonParser parser = ours(json)) {
      for (String name = ArmJson.field(parser); name != null; name = ArmJson.field(parser)) {
        ours.add(name + "=" + ArmJson.string(parser));
        parser.skipChildren();
      }
    }
    assertThat(ours).isEqualTo(theirs).containsExactly("id=/x", "properties=null", "n=null");
  }
}
