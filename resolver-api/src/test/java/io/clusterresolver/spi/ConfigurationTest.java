package io.clusterresolver.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.internal.PropertyTable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

  private static final ConfigProperty<String> REGION =
      ConfigProperty.string("region").description("The region").defaultValue("us-east-1").build();
  private static final ConfigProperty<String> MODE = ConfigProperty.string("mode").oneOf("fast", "safe").build();
  private static final ConfigProperty<Integer> PORT =
      ConfigProperty.integer("port").defaultValue("8888").range(1, 65535).build();
  private static final ConfigProperty<Boolean> VERBOSE = ConfigProperty.bool("verbose").build();
  private static final ConfigProperty<Duration> TIMEOUT = ConfigProperty.duration("timeout").defaultValue("10s").build();
  private static final ConfigProperty<List<String>> ZONES = ConfigProperty.list("zones").build();
  private static final ConfigProperty<Map<String, String>> TAGS = ConfigProperty.map("tags").build();
  private static final ConfigProperty<String> TOKEN = ConfigProperty.string("token").secret().build();
  private static final ConfigProperty<String> PROJECT =
      ConfigProperty.string("project").required().description("The project id").build();
  private static final List<ConfigProperty<?>> PROPERTIES =
      List.of(REGION, MODE, PORT, VERBOSE, TIMEOUT, ZONES, TAGS, TOKEN, PROJECT);

  private static ResolverConfig resolve(Map<String, String> explicit) {
    return ResolverConfig.resolve("demo", PROPERTIES,
        PropertySources.of(explicit, Map.of(), Map.of(), Map.of()));
  }

  @AfterEach
  void clearSystemProperty() {
    System.clearProperty("clusterresolver.demo.region");
  }

  @Test
  void parsesEveryType() {
    ResolverConfig config = resolve(Map.of(
        "clusterresolver.demo.project", "p1",
        "clusterresolver.demo.mode", "safe",
        "clusterresolver.demo.port", " 9000 ",
        "clusterresolver.demo.verbose", "TRUE",
        "clusterresolver.demo.timeout", "500ms",
        "clusterresolver.demo.zones", " a, ,b ,",
        "clusterresolver.demo.tags", "team=ml, env = prod"));
    assertThat(config.get(PROJECT)).isEqualTo("p1");
    assertThat(config.get(MODE)).isEqualTo("safe");
    assertThat(config.get(PORT)).isEqualTo(9000);
    assertThat(config.get(VERBOSE)).isTrue();
    assertThat(config.get(TIMEOUT)).isEqualTo(Duration.ofMillis(500));
    assertThat(config.get(ZONES)).containsExactly("a", "b");
    assertThat(config.get(TAGS)).containsExactly(Map.entry("team", "ml"), Map.entry("env", "prod"));
    assertThat(config.isSet(PORT)).isTrue();
    assertThat(config.isSet(REGION)).isFalse();
    assertThat(config.get(REGION)).isEqualTo("us-east-1");
  }

  @Test
  void defaultsApplyWhenUnset() {
    ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p"));
    assertThat(config.get(PORT)).isEqualTo(8888);
    assertThat(config.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.get(VERBOSE)).isFalse();
    assertThat(config.get(ZONES)).isEmpty();
    assertThat(config.get(TAGS)).isEmpty();
    assertThat(config.find(TOKEN)).isEmpty();
    assertThat(config.find(MODE)).isEmpty();
  }

  @Test
  void durationsTakeUnits() {
    for (Map.Entry<String, Duration> c : Map.of("2m", Duration.ofMinutes(2), "1h", Duration.ofHours(1),
        "3d", Duration.ofDays(3), "250", Duration.ofMillis(250), "7s", Duration.ofSeconds(7)).entrySet()) {
      ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.demo.timeout", c.getKey()));
      assertThat(config.get(TIMEOUT)).isEqualTo(c.getValue());
    }
  }

  @Test
  void codeBeatsSystemPropertiesBeatsEnvironmentBeatsFile() {
    String key = "clusterresolver.demo.region";
    Map<String, String> env = Map.of("CLUSTERRESOLVER_DEMO_REGION", "from-env", "CLUSTERRESOLVER_DEMO_PROJECT", "p");
    Map<String, String> file = Map.of(key, "from-file");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(key, "from-code"), Map.of(key, "from-sysprop"), env, file)).get(REGION)).isEqualTo("from-code");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(key, "from-sysprop"), env, file)).get(REGION)).isEqualTo("from-sysprop");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(), env, file)).get(REGION)).isEqualTo("from-env");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(), Map.of("CLUSTERRESOLVER_DEMO_PROJECT", "p"), file)).get(REGION)).isEqualTo("from-file");
  }

  @Test
  void realSystemPropertiesAreALayer() {
    System.setProperty("clusterresolver.demo.region", "eu-west-1");
    ResolverConfig config = ResolverConfig.resolve("demo", PROPERTIES,
        PropertySources.withEnvironment(Map.of("clusterresolver.demo.project", "p"), Map.of()));
    assertThat(config.get(REGION)).isEqualTo("eu-west-1");
  }

  @Test
  void unknownKeysSuggestTheClosestOne() {
    assertThatThrownBy(() -> resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.demo.regoin", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown property clusterresolver.demo.regoin")
        .hasMessageContaining("did you mean clusterresolver.demo.region?");
    assertThatThrownBy(() -> ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(), Map.of("CLUSTERRESOLVER_DEMO_PROJECT", "p", "CLUSTERRESOLVER_DEMO_PORTT", "1"), Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("did you mean CLUSTERRESOLVER_DEMO_PORT?");
    assertThatThrownBy(() -> resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.demo.completely-else", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reads region, mode, port");
    // keys of other providers are not this provider's business
    assertThat(resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.other.x", "1")).get(PROJECT))
        .isEqualTo("p");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(() -> resolve(Map.of(
        "clusterresolver.demo.port", "-5",
        "clusterresolver.demo.verbose", "yes",
        "clusterresolver.demo.timeout", "soon",
        "clusterresolver.demo.mode", "slow",
        "clusterresolver.demo.tags", "novalue",
        "clusterresolver.demo.zonez", "a")))
        .isInstanceOf(ConfigurationException.class)
        .satisfies(e -> assertThat(((ConfigurationException) e).problems()).hasSize(7))
        .hasMessageContaining("7 problems")
        .hasMessageContaining("clusterresolver.demo.port: '-5' is out of range")
        .hasMessageContaining("clusterresolver.demo.verbose: 'yes' is not a boolean")
        .hasMessageContaining("clusterresolver.demo.timeout: 'soon' is not a duration")
        .hasMessageContaining("clusterresolver.demo.mode: 'slow' is not one of fast, safe")
        .hasMessageContaining("clusterresolver.demo.tags: 'novalue' is not a map")
        .hasMessageContaining("clusterresolver.demo.project is required")
        .hasMessageContaining("CLUSTERRESOLVER_DEMO_PROJECT")
        .hasMessageContaining("did you mean clusterresolver.demo.zones");
  }

  @Test
  void secretsNeverAppear() {
    String secret = "s3cr3t-value";
    ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.demo.token", secret));
    assertThat(config.get(TOKEN)).isEqualTo(secret);
    assertThat(config.toString()).doesNotContain(secret).contains("token=****");
    ConfigProperty<Integer> secretInt = ConfigProperty.integer("pin").secret().build();
    assertThatThrownBy(() -> ResolverConfig.resolve("demo", List.of(secretInt),
        PropertySources.of(Map.of("clusterresolver.demo.pin", secret), Map.of(), Map.of(), Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.demo.pin")
        .hasMessageNotContaining(secret);
    assertThat(secretInt.toString()).contains("secret");
    assertThat(PropertyTable.markdown("demo", PROPERTIES)).contains("(secret: never shown)");
  }

  @Test
  void propertyNamesAndDefaultsAreChecked() {
    assertThatThrownBy(() -> ConfigProperty.string("Bad_Name")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConfigProperty.integer("n").defaultValue("x").build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ConfigProperty.string("tasks-per-node").build().environmentVariable("slurm"))
        .isEqualTo("CLUSTERRESOLVER_SLURM_TASKS_PER_NODE");
  }

  @Test
  void undeclaredPropertiesAreAProviderBug() {
    ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p"));
    assertThatThrownBy(() -> config.get(ConfigProperty.string("other").build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not declare property 'other'");
    // same name, other type: not the declared property either
    assertThatThrownBy(() -> config.get(ConfigProperty.integer("region").build()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theEnvironmentIsALiveReadOnlyView() {
    Map<String, String> env = new java.util.HashMap<>(Map.of("TF_CONFIG", "a"));
    PropertySources sources = PropertySources.withEnvironment(Map.of(), env);
    env.put("TF_CONFIG", "b");
    assertThat(sources.environment().get("TF_CONFIG")).isEqualTo("b");
    assertThatThrownBy(() -> sources.environment().put("X", "y")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void tableListsEveryProperty() {
    String table = PropertyTable.markdown("demo", PROPERTIES);
    assertThat(table.lines().count()).isEqualTo(2 + PROPERTIES.size());
    assertThat(table).contains("| `clusterresolver.demo.port` | `CLUSTERRESOLVER_DEMO_PORT` | int | `8888` |");
    assertThat(PropertyTable.extract("x\n" + PropertyTable.BEGIN + "\n" + table + PropertyTable.END + "\n"))
        .isEqualTo(table);
  }

  @Test
  void integersAreAsciiDigitsOnly() {
    // Found by ConfigPropertyFuzzTest: Long.parseLong reads "\u0663" (ARABIC-INDIC DIGIT THREE) as 3.
    ConfigProperty<Integer> port = ConfigProperty.integer("port").range(1, 65535).build();
    for (String notAscii : new String[] {"\u0663", " \u0663\u0663 ", "\uff18\uff18"}) {
      assertThatThrownBy(() -> port.parse("clusterresolver.demo.port", notAscii)).as(notAscii)
          .isInstanceOf(ConfigurationException.class).hasMessageContaining("is not an integer");
    }
    assertThat(port.parse("clusterresolver.demo.port", " +8888\t")).isEqualTo(8888);
  }
}
