package io.clusterresolver.cli;

import io.clusterresolver.testkit.Fault;
import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.testkit.SimulatedEc2;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, secrets: a known secret given through every property source (-D, --config, a
 * CLUSTERRESOLVER_* variable, a JVM system property), on the success path and every error path
 * (API errors, throttling, garbage, no endpoint, a typo in its key, a malformed value next to it, a
 * missing partner credential), with java.util.logging at its finest level, never appears in stdout,
 * stderr, a log record (message, parameters or thrown) or the text of a thrown exception.
 */
class SecretsNeverShownTest {

  private static final String SECRET = "S3cr3t-K3y/Never+Shown";
  private static final String TOKEN = "T0ken-Never-Shown-xyz";
  private static final String ACCESS_KEY = "AKIANEVERSHOWNKEY01";
  private static final List<String> SECRETS = List.of(SECRET, TOKEN, ACCESS_KEY);

  @TempDir
  Path dir;
  private SimulatedEc2 ec2;
  private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private Level rootLevel;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
    ec2.addTypical(0, 3, b -> b);
    ec2.identifyAs(ec2.instances().get(1).instanceId());
    Logger root = Logger.getLogger("");
    rootLevel = root.getLevel();
    root.setLevel(Level.ALL);
    handler.setLevel(Level.ALL);
    root.addHandler(handler);
  }

  @AfterEach
  void stop() {
    Logger root = Logger.getLogger("");
    root.removeHandler(handler);
    root.setLevel(rootLevel);
    ec2.close();
    System.clearProperty("clusterresolver.aws.secret-access-key");
    System.clearProperty("clusterresolver.aws.session-token");
  }

  /** The simulation's non-secret settings. */
  private Map<String, String> plain() {
    Map<String, String> p = new LinkedHashMap<>(ec2.providerProperties());
    p.keySet().removeIf(k -> k.endsWith("access-key-id") || k.endsWith("secret-access-key")
        || k.endsWith("session-token"));
    return p;
  }

  private static String[] args(Map<String, String> properties, String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws"));
    properties.forEach((k, v) -> args.addAll(List.of("-D", k + "=" + v)));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  /** One source of the three credentials. */
  private interface Source {
    CliRun run(Map<String, String> properties, String... more) throws Exception;
  }

  private Source minusD() {
    return (properties, more) -> {
      Map<String, String> all = new LinkedHashMap<>(properties);
      all.put("clusterresolver.aws.access-key-id", ACCESS_KEY);
      all.put("clusterresolver.aws.secret-access-key", SECRET);
      all.put("clusterresolver.aws.session-token", TOKEN);
      return CliRun.run(Map.of(), args(all, more));
    };
  }

  private Source configFile() {
    return (properties, more) -> {
      Path file = dir.resolve("secret.properties");
      Files.writeString(file, "clusterresolver.aws.access-key-id=" + ACCESS_KEY + "\n"
          + "clusterresolver.aws.secret-access-key=" + SECRET + "\nclusterresolver.aws.session-token=" + TOKEN + "\n");
      List<String> extra = new ArrayList<>(List.of("--config", file.toString()));
      extra.addAll(List.of(more));
      return CliRun.run(Map.of(), args(properties, extra.toArray(new String[0])));
    };
  }

  private Source environment() {
    return (properties, more) -> CliRun.run(Map.of("CLUSTERRESOLVER_AWS_ACCESS_KEY_ID", ACCESS_KEY,
        "CLUSTERRESOLVER_AWS_SECRET_ACCESS_KEY", SECRET, "CLUSTERRESOLVER_AWS_SESSION_TOKEN", TOKEN),
        args(properties, more));
  }

  private Source systemProperties() {
    return (properties, more) -> {
      System.setProperty("clusterresolver.aws.secret-access-key", SECRET);
      System.setProperty("clusterresolver.aws.session-token", TOKEN);
      try {
        return CliRun.run(Map.of("CLUSTERRESOLVER_AWS_ACCESS_KEY_ID", ACCESS_KEY), args(properties, more));
      } finally {
        System.clearProperty("clusterresolver.aws.secret-access-key");
        System.clearProperty("clusterresolver.aws.session-token");
      }
    };
  }

  /** Runs one scenario through every source and checks everything that was written or logged. */
  private void everySource(String scenario, Consumer<SimulatedEc2> setUp, Map<String, String> properties,
      int expectedCode, String... more) throws Exception {
    Map<String, Source> sources = new LinkedHashMap<>();
    sources.put("-D", minusD());
    sources.put("--config", configFile());
    sources.put("CLUSTERRESOLVER_* variables", environment());
    sources.put("system properties", systemProperties());
    for (Map.Entry<String, Source> source : sources.entrySet()) {
      ec2.clearFaults();
      setUp.accept(ec2);
      records.clear();
      CliRun run = source.getValue().run(properties, more);
      String what = scenario + " via " + source.getKey();
      assertThat(run.code).as("%s: %s", what, run).isEqualTo(expectedCode);
      for (String secret : SECRETS) {
        assertThat(run.out).as("stdout of %s", what).doesNotContain(secret);
        assertThat(run.err).as("stderr of %s", what).doesNotContain(secret);
        assertThat(logged()).as("logs of %s", what).doesNotContain(secret);
      }
    }
  }

  /** Everything the log records carry: message, parameters, and the thrown exception with its causes. */
  private String logged() {
    StringBuilder text = new StringBuilder();
    synchronized (records) {
      for (LogRecord record : records) {
        text.append(record.getMessage()).append('\n');
        if (record.getParameters() != null) {
          for (Object parameter : record.getParameters()) {
            text.append(parameter).append('\n');
          }
        }
        if (record.getThrown() != null) {
          StringWriter trace = new StringWriter();
          record.getThrown().printStackTrace(new PrintWriter(trace));
          text.append(trace).append('\n');
        }
      }
    }
    return text.toString();
  }

  @Test
  void theSuccessPath() throws Exception {
    everySource("a resolve", e -> { }, plain(), ExitCodes.OK);
    everySource("a resolve printed as env", e -> { }, plain(), ExitCodes.OK, "--format", "env");
  }

  @Test
  void apiErrorsThrottlingAndGarbage() throws Exception {
    everySource("InternalError on every call", e -> e.inject(Fault.serverError().onOperation("DescribeInstances").always()), plain(), ExitCodes.RESOLUTION_FAILURE);
    everySource("RequestLimitExceeded on every call", e -> e.inject(Fault.throttled()
        .onOperation("DescribeInstances").always()), plain(), ExitCodes.RESOLUTION_FAILURE);
    everySource("a body that is not XML", e -> e.inject(Fault.malformedBody().onOperation("DescribeInstances").always()), plain(), ExitCodes.RESOLUTION_FAILURE);
  }

  @Test
  void noEndpointAnswering() throws Exception {
    Map<String, String> properties = plain();
    properties.put("clusterresolver.aws.endpoint", "http://127.0.0.1:1");
    properties.put("clusterresolver.aws.max-attempts", "1");
    everySource("a refused connection", e -> { }, properties, ExitCodes.RESOLUTION_FAILURE);
  }

  @Test
  void configurationMistakesNextToTheSecret() throws Exception {
    Map<String, String> wrongType = plain();
    wrongType.put("clusterresolver.aws.port", "abc");
    everySource("a malformed port", e -> { }, wrongType, ExitCodes.USAGE);
    Map<String, String> badRegion = plain();
    badRegion.put("clusterresolver.aws.region", "us east 1");
    everySource("a malformed region", e -> { }, badRegion, ExitCodes.USAGE);
    // a typo of the secret's own key, with the secret as its value: warned about, never echoed
    Map<String, String> typo = plain();
    typo.put("clusterresolver.aws.secret-acess-key", SECRET);
    typo.put("clusterresolver.aws.sesion-token", TOKEN);
    // (an unknown key of the chosen provider given with -D is a mistake to fix: exit 2)
    everySource("a misspelt secret key", e -> { }, typo, ExitCodes.USAGE);
  }
}
