package io.clusterresolver.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

  private static final List<ConfigProperty<?>> PROPERTIES = List.of(
      ConfigProperty.string("region").description("The region").defaultValue("us-east-1").build(),
      ConfigProperty.string("mode").oneOf("fast", "safe").build(),
      ConfigProperty.integer("port").defaultValue("8888").range(1, 65535).build(),
      ConfigProperty.bool("verbose").build(),
      ConfigProperty.duration("timeout").defaultValue("10s").build(),
      ConfigProperty.list("zones").build(),
      ConfigProperty.map("tags").build(),
      ConfigProperty.string("token").secret().build(),
      ConfigProperty.string("project").required().description("The project id").build());

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
    assertThat(config.string("project")).isEqualTo("p1");
    assertThat(config.string("mode")).isEqualTo("safe");
    assertThat(config.integer("port")).isEqualTo(9000);
    assertThat(config.bool("verbose")).isTrue();
    assertThat(config.duration("timeout")).isEqualTo(Duration.ofMillis(500));
    assertThat(config.list("zones")).containsExactly("a", "b");
    assertThat(config.map("tags")).containsExactly(Map.entry("team", "ml"), Map.entry("env", "prod"));
    assertThat(config.isSet("port")).isTrue();
    assertThat(config.isSet("region")).isFalse();
    assertThat(config.string("region")).isEqualTo("us-east-1");
  }

  @Test
  void defaultsApplyWhenUnset() {
    ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p"));
    assertThat(config.integer("port")).isEqualTo(8888);
    assertThat(config.duration("timeout")).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.bool("verbose")).isFalse();
    assertThat(config.list("zones")).isEmpty();
    assertThat(config.map("tags")).isEmpty();
    assertThat(config.optionalString("token")).isEmpty();
    assertThat(config.optionalString("mode")).isEmpty();
  }

  @Test
  void durationsTakeUnits() {
    for (Map.Entry<String, Duration> c : Map.of("2m", Duration.ofMinutes(2), "1h", Duration.ofHours(1),
        "3d", Duration.ofDays(3), "250", Duration.ofMillis(250), "7s", Duration.ofSeconds(7)).entrySet()) {
      ResolverConfig config = resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.demo.timeout", c.getKey()));
      assertThat(config.duration("timeout")).isEqualTo(c.getValue());
    }
  }

  @Test
  void codeBeatsSystemPropertiesBeatsEnvironmentBeatsFile() {
    String key = "clusterresolver.demo.region";
    Map<String, String> env = Map.of("CLUSTERRESOLVER_DEMO_REGION", "from-env", "CLUSTERRESOLVER_DEMO_PROJECT", "p");
    Map<String, String> file = Map.of(key, "from-file");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(key, "from-code"), Map.of(key, "from-sysprop"), env, file)).string("region")).isEqualTo("from-code");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(key, "from-sysprop"), env, file)).string("region")).isEqualTo("from-sysprop");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(), env, file)).string("region")).isEqualTo("from-env");
    assertThat(ResolverConfig.resolve("demo", PROPERTIES, PropertySources.of(
        Map.of(), Map.of(), Map.of("CLUSTERRESOLVER_DEMO_PROJECT", "p"), file)).string("region")).isEqualTo("from-file");
  }

  @Test
  void realSystemPropertiesAreALayer() {
    System.setProperty("clusterresolver.demo.region", "eu-west-1");
    ResolverConfig config = ResolverConfig.resolve("demo", PROPERTIES,
        PropertySources.withEnvironment(Map.of("clusterresolver.demo.project", "p"), Map.of()));
    assertThat(config.string("region")).isEqualTo("eu-west-1");
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
    assertThat(resolve(Map.of("clusterresolver.demo.project", "p", "clusterresolver.other.x", "1")).string("project"))
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
        .isInstanceOf(IllegalArgumentException.class)
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
    assertThat(config.string("token")).isEqualTo(secret);
    assertThat(config.toString()).doesNotContain(secret).contains("token=****");
    ConfigProperty secretInt = ConfigProperty.integer("pin").secret().build();
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
}
